import { type EntityManager, raw } from '@mikro-orm/postgresql';
import type { SecretBox } from '../crypto/secret-box.ts';
import { Chip } from '../db/entities/index.ts';
import type { TenantScope } from '../db/tenant-scope.ts';
import { DomainError } from '../errors.ts';
import { NTAG_424_DNA, verifySun } from '../sun/index.ts';
import { loadSunKeys } from './chip-keys.ts';
import { findChip } from './enroll.ts';

export interface SunPayload {
  piccData: string;
  cmac: string;
  encFileData?: string | undefined;
  macInput?: string | undefined;
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
  const chip = await findChip(em, input.chipUid);
  const keys = await loadSunKeys(em, box, scope);
  const result = verifySun({ ...input.sun, keys, expectedUid: chip.chipUid });
  if (!result.ok) {
    if (result.reason === 'malformed')
      throw new DomainError('invalid', 'malformed_sun_payload', result.message);
    return {
      authentic: false,
      chipUid: chip.chipUid,
      reason: result.reason,
      message: result.message,
      counter: null,
      chipType: NTAG_424_DNA,
    };
  }
  const accepted = await em.nativeUpdate(
    Chip,
    { id: chip.id, $or: [{ sunCounter: null }, { sunCounter: { $lt: result.counter } }] },
    {
      sunCounter: result.counter,
      sunCounterRef: input.reference ?? null,
      verificationCount: raw('verification_count + 1'),
      lastVerifiedAt: new Date(),
      updatedAt: new Date(),
    },
  );
  if (accepted === 0) {
    const current = await em.findOne(Chip, { id: chip.id }, { refresh: true });
    const sameCaller =
      input.reference !== undefined &&
      current?.sunCounter === result.counter &&
      current.sunCounterRef === input.reference;
    if (sameCaller) {
      return {
        authentic: true,
        chipId: chip.id,
        chipUid: chip.chipUid,
        counter: result.counter,
        chipType: result.chipType,
      };
    }
    return {
      authentic: false,
      chipUid: chip.chipUid,
      reason: 'replayed',
      message: `SUN read counter ${result.counter} was already used; tap the chip again for a fresh signature.`,
      counter: result.counter,
      chipType: result.chipType,
    };
  }
  return {
    authentic: true,
    chipId: chip.id,
    chipUid: chip.chipUid,
    counter: result.counter,
    chipType: result.chipType,
  };
}
