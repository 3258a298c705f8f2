import type { EntityManager } from '@mikro-orm/postgresql';
import { canonicalChipUid } from '../chips/enroll.ts';
import type { TenantScope } from '../db/tenant-scope.ts';
import { DomainError } from '../errors.ts';

// Raw SQL bypasses the ORM's tenant filter: the chip and its passport are both looked up within the scope.
const CHIP_WITH_PASSPORT = `
  select c.chip_uid,
    exists (select 1 from passports p
            where p.company_id = c.company_id and p.environment = c.environment and p.chip_uid = c.chip_uid)
      as has_passport
  from chips c
  where c.company_id = ? and c.environment = ? and c.chip_uid = ?`;

/**
 * The chip a mint request names, with whether it already holds a passport, in one query. A chip not
 * enrolled in the scope's environment is a not-found domain error (as findChip).
 */
export async function findChipToMint(
  em: EntityManager,
  scope: TenantScope,
  chipUidInput: string,
): Promise<{ chipUid: string; hasPassport: boolean }> {
  const chipUid = canonicalChipUid(chipUidInput);
  const [row] = await em.execute<{ chip_uid: string; has_passport: boolean }[]>(CHIP_WITH_PASSPORT, [
    scope.companyId,
    scope.environment,
    chipUid,
  ]);
  if (!row)
    throw new DomainError(
      'not_found',
      'chip_not_found',
      `Chip ${chipUid} is not enrolled in this environment.`,
    );
  return { chipUid: row.chip_uid, hasPassport: row.has_passport };
}
