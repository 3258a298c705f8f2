import type { EntityManager } from '@mikro-orm/postgresql';
import { executeBound } from '../platform/db/bound-statement.ts';
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
import { type CompanySunKeys, companySunKeys } from './company-sun-keys.ts';
import { canonicalChipUid } from './enroll.ts';
import { RECORD_TAP, type RecordedTap } from './signals/tap-statement.ts';

export const NTAG_424_DNA_TT = 'NTAG 424 DNA TT';

// Raw statements bypass the ORM's tenant filter, so each one names company and environment itself.
const CHIP_ENROLLED = 'select 1 from chips where company_id = ? and environment = ? and chip_uid = ?';

function chipNotFound(chipUid: string): DomainError {
  return new DomainError(
    'not_found',
    'chip_not_found',
    `Chip ${chipUid} is not enrolled in this environment.`,
  );
}

/** An unknown chip answers 404 before anything else its reading could answer (refused paths only). */
async function requireEnrolled(em: EntityManager, scope: TenantScope, chipUid: string): Promise<void> {
  const [chip] = await em.execute(CHIP_ENROLLED, [scope.companyId, scope.environment, chipUid]);
  if (!chip) throw chipNotFound(chipUid);
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
 * Verifies one tap of an enrolled chip with the company's keys (kept in memory: company-sun-keys.ts) and, when
 * genuine, records it in one round trip (RECORD_TAP, which finds the chip by its UID): its read counter is accepted when greater than the last accepted one, else it is a replay and counted as a reopening
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
  let company: CompanySunKeys & { fresh: boolean };
  try {
    company = await companySunKeys(em, box, scope);
  } catch (error) {
    await requireEnrolled(em, scope, chipUid);
    throw error;
  }
  for (let attempt = 0; ; attempt++) {
    let result = verifyTapInEitherMode({ ...input.sun, keys: company.keys, expectedUid: chipUid });
    if (!result.ok && !company.fresh) {
      // Keys kept in memory may predate the company's new ones: a reading they refuse is checked with the stored.
      const stored = await companySunKeys(em, box, scope, { fresh: true });
      if (stored.version !== company.version) {
        company = stored;
        result = verifyTapInEitherMode({ ...input.sun, keys: company.keys, expectedUid: chipUid });
      }
    }
    if (!result.ok) {
      await requireEnrolled(em, scope, chipUid);
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
    const tamper = tagTamperStatus(result.fileData);
    const [recorded] = await executeBound<RecordedTap>(em, RECORD_TAP, [
      scope.companyId,
      scope.environment,
      chipUid,
      result.counter,
      input.reference ?? null,
      input.at ?? new Date(),
      input.client ?? null,
      tamper ? JSON.stringify(tamper) : null,
      company.version,
    ]);
    if (!recorded) throw chipNotFound(chipUid);
    if (recorded.keys_changed) {
      if (attempt >= 2)
        throw new DomainError(
          'conflict',
          'chip_keys_changed',
          'The SUN keys changed during the tap: tap again.',
        );
      company = await companySunKeys(em, box, scope, { fresh: true });
      continue;
    }
    const chipType = recorded.chip_type;
    if (recorded.accepted) {
      return {
        authentic: true,
        chipId: recorded.chip_id,
        chipUid,
        counter: result.counter,
        chipType,
        ...(tamper && chipType === NTAG_424_DNA_TT ? { tamper } : {}),
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
      ...(input.reference === undefined && recorded.openings && recorded.first_at
        ? { reopenings: { openings: recorded.openings, since: new Date(recorded.first_at) } }
        : {}),
    };
  }
}
