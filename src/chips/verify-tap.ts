import type { EntityManager } from '@mikro-orm/postgresql';
import type { FileReadKeyDiversification } from '../platform/db/entities/chip-keys.ts';
import type { TenantScope } from '../platform/db/tenant-scope.ts';
import { DomainError } from '../platform/errors.ts';
import type { SecretBox } from '../platform/secret-box.ts';
import {
  NTAG_424_DNA,
  type SunPayload,
  type TagTamperStatus,
  tagTamperStatus,
  verifyTapInEitherMode,
} from '../standards/sun/index.ts';
import { openSunKeys, type SealedSunKeys } from './chip-keys.ts';
import { canonicalChipUid } from './enroll.ts';
import { RECORD_TAP, type RecordedTap } from './signals/tap-statement.ts';

export const NTAG_424_DNA_TT = 'NTAG 424 DNA TT';

// Raw statements bypass the ORM's tenant filter, so each one names company and environment itself.
const CHIP_WITH_KEYS = `
  select c.id, c.chip_type, k.meta_read_key, k.file_read_key, k.file_read_key_diversification
  from chips c
  left join chip_keys k on k.company_id = c.company_id and k.environment = c.environment
  where c.company_id = ? and c.environment = ? and c.chip_uid = ?`;
const ACCEPTED_COUNTER = `
  select sun_counter, sun_counter_ref from chips where company_id = ? and environment = ? and id = ?`;

/**
 * A refused counter accepted earlier under the caller's own reference (a workflow's retry): read after the
 * refusal, not from the statement's snapshot, so a concurrent acceptance by the same caller has committed by now.
 */
async function acceptedBySameCaller(
  em: EntityManager,
  scope: TenantScope,
  chipId: number,
  counter: number,
  reference: string | undefined,
): Promise<boolean> {
  if (reference === undefined) return false;
  const [current] = await em.execute<{ sun_counter: number | null; sun_counter_ref: string | null }[]>(
    ACCEPTED_COUNTER,
    [scope.companyId, scope.environment, chipId],
  );
  return current?.sun_counter === counter && current.sun_counter_ref === reference;
}

interface ChipWithKeys {
  id: number;
  chip_type: string;
  meta_read_key: Uint8Array | null;
  file_read_key: Uint8Array | null;
  file_read_key_diversification: FileReadKeyDiversification | null;
}

/** A used URL presented again: how many times it has been read in all (its first reading included), since when. */
export interface Reopenings {
  openings: number;
  since: Date;
}

export type TapVerification =
  | {
      authentic: true;
      chipId: number;
      chipUid: string;
      counter: number;
      chipType: string;
      tamper?: TagTamperStatus;
    }
  | {
      authentic: false;
      chipUid: string;
      reason: 'bad_cmac' | 'bad_tag' | 'uid_mismatch' | 'replayed';
      message: string;
      counter: number | null;
      chipType: string;
      reopenings?: Reopenings;
    };

/**
 * Verifies one tap of an enrolled chip and, when genuine, records it in one statement (RECORD_TAP): its read
 * counter is accepted when greater than the last accepted one, else it is a replay and counted as a reopening
 * of a used URL; the counterfeit signals the reading raises are written by that same statement. `client` is a
 * keyed hash of who presented the tap (clientHash), never a raw address.
 */
export async function verifyTap(
  em: EntityManager,
  box: SecretBox,
  scope: TenantScope,
  input: {
    chipUid: string;
    sun: SunPayload;
    reference?: string;
    client?: string | undefined;
    /** When the reading happened (default now): the ordinary-life simulation replays years of taps. */
    at?: Date;
  },
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
  const tamper = chip.chip_type === NTAG_424_DNA_TT ? tagTamperStatus(result.fileData) : null;
  const [recorded] = await em.execute<RecordedTap[]>(RECORD_TAP, [
    scope.companyId,
    scope.environment,
    chip.id,
    result.counter,
    input.reference ?? null,
    input.at ?? new Date(),
    input.client ?? null,
    tamper ? JSON.stringify(tamper) : null,
  ]);
  const chipType = chip.chip_type;
  if (
    recorded?.accepted ||
    (await acceptedBySameCaller(em, scope, chip.id, result.counter, input.reference))
  ) {
    return {
      authentic: true,
      chipId: chip.id,
      chipUid,
      counter: result.counter,
      chipType,
      ...(tamper ? { tamper } : {}),
    };
  }
  return {
    authentic: false,
    chipUid,
    reason: 'replayed',
    message: `SUN read counter ${result.counter} was already used; tap the chip again for a fresh signature.`,
    counter: result.counter,
    chipType,
    // For the page and verify-chip: a workflow's reading (with a reference) is no copied URL someone opened.
    ...(input.reference === undefined && recorded?.openings && recorded.first_at
      ? { reopenings: { openings: recorded.openings, since: new Date(recorded.first_at) } }
      : {}),
  };
}
