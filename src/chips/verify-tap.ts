import type { EntityManager } from '@mikro-orm/postgresql';
import type { FileReadKeyDiversification } from '../platform/db/entities/chip-keys.ts';
import type { TenantScope } from '../platform/db/tenant-scope.ts';
import { DomainError } from '../platform/errors.ts';
import type { SecretBox } from '../platform/secret-box.ts';
import { NTAG_424_DNA, type SunPayload, verifyTapInEitherMode } from '../standards/sun/index.ts';
import { openSunKeys, type SealedSunKeys } from './chip-keys.ts';
import { canonicalChipUid } from './enroll.ts';

// Raw statements bypass the ORM's tenant filter, so each one names company and environment itself.
const CHIP_WITH_KEYS = `
  select c.id, k.meta_read_key, k.file_read_key, k.file_read_key_diversification
  from chips c
  left join chip_keys k on k.company_id = c.company_id and k.environment = c.environment
  where c.company_id = ? and c.environment = ? and c.chip_uid = ?`;
const ACCEPT_COUNTER = `
  update chips set sun_counter = ?, sun_counter_ref = ?, verification_count = verification_count + 1,
    last_verified_at = ?, updated_at = ?
  where company_id = ? and environment = ? and id = ? and (sun_counter is null or sun_counter < ?)
  returning id`;
const ACCEPTED_COUNTER = `
  select sun_counter, sun_counter_ref from chips where company_id = ? and environment = ? and id = ?`;

interface ChipWithKeys {
  id: number;
  meta_read_key: Uint8Array | null;
  file_read_key: Uint8Array | null;
  file_read_key_diversification: FileReadKeyDiversification | null;
}

export type TapVerification =
  | { authentic: true; chipId: number; chipUid: string; counter: number; chipType: string }
  | {
      authentic: false;
      chipUid: string;
      reason: 'bad_cmac' | 'bad_tag' | 'uid_mismatch' | 'replayed';
      message: string;
      counter: number | null;
      chipType: string;
    };

/**
 * Verifies one tap of an enrolled chip and, when genuine, accepts its read counter. A counter not greater
 * than the last accepted one is a replay; the check and the update are one conditional UPDATE, so of two
 * concurrent requests with the same counter exactly one wins.
 */
export async function verifyTap(
  em: EntityManager,
  box: SecretBox,
  scope: TenantScope,
  input: { chipUid: string; sun: SunPayload; reference?: string },
): Promise<TapVerification> {
  const chipUid = canonicalChipUid(input.chipUid);
  const [chip] = await em.execute<ChipWithKeys[]>(CHIP_WITH_KEYS, [
    scope.companyId,
    scope.environment,
    chipUid,
  ]);
  if (!chip)
    throw new DomainError(
      'not_found',
      'chip_not_found',
      `Chip ${chipUid} is not enrolled in this environment.`,
    );
  const sealed: SealedSunKeys | null =
    chip.meta_read_key && chip.file_read_key
      ? {
          metaReadKey: chip.meta_read_key,
          fileReadKey: chip.file_read_key,
          fileReadKeyDiversification: chip.file_read_key_diversification,
        }
      : null;
  const keys = openSunKeys(box, scope, sealed);
  const result = verifyTapInEitherMode({ ...input.sun, keys, expectedUid: chipUid });
  if (!result.ok) {
    if (result.reason === 'malformed')
      throw new DomainError('invalid', 'malformed_sun_payload', result.message);
    return {
      authentic: false,
      chipUid,
      reason: result.reason,
      message: result.message,
      counter: null,
      chipType: NTAG_424_DNA,
    };
  }
  const now = new Date();
  const accepted = await em.execute<{ id: number }[]>(ACCEPT_COUNTER, [
    result.counter,
    input.reference ?? null,
    now,
    now,
    scope.companyId,
    scope.environment,
    chip.id,
    result.counter,
  ]);
  if (accepted.length === 0) {
    // Read after the refusal, not before: a concurrent acceptance by the same caller has committed by now.
    const [current] = await em.execute<{ sun_counter: number | null; sun_counter_ref: string | null }[]>(
      ACCEPTED_COUNTER,
      [scope.companyId, scope.environment, chip.id],
    );
    const sameCaller =
      input.reference !== undefined &&
      current?.sun_counter === result.counter &&
      current.sun_counter_ref === input.reference;
    if (sameCaller) {
      return {
        authentic: true,
        chipId: chip.id,
        chipUid,
        counter: result.counter,
        chipType: result.chipType,
      };
    }
    return {
      authentic: false,
      chipUid,
      reason: 'replayed',
      message: `SUN read counter ${result.counter} was already used; tap the chip again for a fresh signature.`,
      counter: result.counter,
      chipType: result.chipType,
    };
  }
  return {
    authentic: true,
    chipId: chip.id,
    chipUid,
    counter: result.counter,
    chipType: result.chipType,
  };
}
