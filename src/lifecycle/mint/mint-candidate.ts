import type { EntityManager } from '@mikro-orm/postgresql';
import { canonicalChipUid, chipEnrolledElsewhere } from '../../chips/enroll.ts';
import type { TenantScope } from '../../platform/db/tenant-scope.ts';

// Raw SQL bypasses the ORM's tenant filter: the chip is looked up in the environment (a chip UID is unique
// there), and whether it is ours and holds a passport of ours is told apart in the same query.
const CHIP_WITH_PASSPORT = `
  select c.chip_uid, c.company_id = ? as ours,
    exists (select 1 from passports p
            where p.company_id = c.company_id and p.environment = c.environment and p.chip_uid = c.chip_uid)
      as has_passport
  from chips c
  where c.environment = ? and c.chip_uid = ?`;

export type ChipToMint =
  | { chipUid: string; enrolled: true; hasPassport: boolean }
  | { chipUid: string; enrolled: false; hasPassport: false };

/**
 * The chip a mint request names, in one query: enrolled by us (with whether it already holds a passport),
 * or not enrolled at all. A chip enrolled by another company is a conflict.
 */
export async function findChipToMint(
  em: EntityManager,
  scope: TenantScope,
  chipUidInput: string,
): Promise<ChipToMint> {
  const chipUid = canonicalChipUid(chipUidInput);
  const [row] = await em.execute<{ chip_uid: string; ours: boolean; has_passport: boolean }[]>(
    CHIP_WITH_PASSPORT,
    [scope.companyId, scope.environment, chipUid],
  );
  if (!row) return { chipUid, enrolled: false, hasPassport: false };
  if (!row.ours) throw chipEnrolledElsewhere(chipUid);
  return { chipUid: row.chip_uid, enrolled: true, hasPassport: row.has_passport };
}
