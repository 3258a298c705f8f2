import { type EntityManager, LockMode } from '@mikro-orm/postgresql';
import { recordPassportVersion } from '../../passport/record/passport-versions.ts';
import { Passport } from '../../platform/db/entities/index.ts';
import { DomainError } from '../../platform/errors.ts';

export interface Revocation {
  tokenId: string;
  revokedAt: Date;
  reason: string;
  /** True when it was revoked before (the first revocation and its reason stay). */
  alreadyRevoked: boolean;
}

/**
 * Revokes one of the caller's passports (the entity manager is scoped to company and environment): its
 * credential's revocation bit is set in its status list from now on, the public representations show it as
 * REVOKED, and the passport gets a new content version. Revoking again changes nothing. Recycling revokes too, with reason `recycled`.
 */
export async function revokePassport(
  em: EntityManager,
  tokenId: string,
  reason: string,
  publicBaseUrl: string,
): Promise<Revocation> {
  return em.transactional(async (tx) => {
    const passport = await tx.findOne(Passport, { tokenId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    if (!passport)
      throw new DomainError('not_found', 'passport_not_found', `No passport with token id ${tokenId}.`);
    if (passport.revokedAt) {
      return {
        tokenId,
        revokedAt: passport.revokedAt,
        reason: passport.revocationReason ?? '',
        alreadyRevoked: true,
      };
    }
    passport.revokedAt = new Date();
    passport.revocationReason = reason;
    await tx.flush();
    await recordPassportVersion(tx, passport.id, publicBaseUrl);
    return { tokenId, revokedAt: passport.revokedAt, reason, alreadyRevoked: false };
  });
}
