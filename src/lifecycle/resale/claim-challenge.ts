import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Environment } from '../../platform/config/config.ts';
import { DomainError } from '../../platform/errors.ts';

/** How long a challenge waits for the tap made after it (docs/resale.md "A tap made now"). */
export const CLAIM_CHALLENGE_SECONDS = 300;

/** The act a challenge is issued for: a buyer's claim, or an owner's release for resale. */
export type ChallengePurpose = 'claim' | 'release';

export interface IssuedChallenge {
  challengeId: string;
  issuedAt: string;
  expiresAt: string;
}

// The chip's accepted counter when the challenge is issued: a claim's tap must be read after it.
const ISSUE = `
  insert into claim_challenges
    (id, environment, token_id, user_email, purpose, chip_counter, issued_at, expires_at)
  select ?, ?, ?, ?, ?, c.sun_counter, now(), now() + make_interval(secs => ?)
    from passports p join chips c on c.environment = p.environment and c.chip_uid = p.chip_uid
   where p.environment = ? and p.token_id = ? and p.company_id = ?
  returning issued_at, expires_at`;

/**
 * A challenge for the person about to act on `tokenId` (the caller has checked they may): the buyer of an open
 * resale (claim, the default), or the passport's owner (release).
 */
export async function issueClaimChallenge(
  em: EntityManager,
  input: {
    environment: Environment;
    tokenId: string;
    companyId: string;
    buyerEmail: string;
    purpose?: ChallengePurpose;
  },
): Promise<IssuedChallenge> {
  const id = randomUUID();
  const [row] = await em.execute<{ issued_at: Date; expires_at: Date }[]>(ISSUE, [
    id,
    input.environment,
    input.tokenId,
    input.buyerEmail.toLowerCase(),
    input.purpose ?? 'claim',
    CLAIM_CHALLENGE_SECONDS,
    input.environment,
    input.tokenId,
    input.companyId,
  ]);
  if (!row) throw new DomainError('not_found', 'resale_not_found', `No passport ${input.tokenId} to claim.`);
  return {
    challengeId: id,
    issuedAt: new Date(row.issued_at).toISOString(),
    expiresAt: new Date(row.expires_at).toISOString(),
  };
}

export interface OpenChallenge {
  chipCounter: number | null;
  issuedAt: Date;
}

/**
 * Uses the person's challenge for this act (once): refused when unknown, someone else's, issued for the other
 * act, used or expired.
 */
export async function consumeClaimChallenge(
  em: EntityManager,
  input: {
    environment: Environment;
    tokenId: string;
    buyerEmail: string;
    challengeId: string;
    purpose?: ChallengePurpose;
  },
): Promise<OpenChallenge> {
  const purpose = input.purpose ?? 'claim';
  const [row] = await em.execute<{ chip_counter: number | null; issued_at: Date; expired: boolean }[]>(
    `update claim_challenges set used_at = now()
      where id = ? and environment = ? and token_id = ? and user_email = ? and purpose = ? and used_at is null
      returning chip_counter, issued_at, expires_at < now() as expired`,
    [input.challengeId, input.environment, input.tokenId, input.buyerEmail.toLowerCase(), purpose],
  );
  if (!row || row.expired) {
    throw new DomainError(
      'rejected',
      'challenge_expired',
      `This ${purpose}’s challenge is unknown, used or expired: start again (POST /v1/dpp/${purpose}/challenge), ` +
        `then tap the tag within ${CLAIM_CHALLENGE_SECONDS / 60} minutes.`,
    );
  }
  return { chipCounter: row.chip_counter, issuedAt: new Date(row.issued_at) };
}

/**
 * A tap refused as replayed may still be the one made after the challenge: a phone without Web NFC opens the
 * tag's URL (the resolver accepts its counter), then the page posts that URL to the claim. It counts when its
 * counter is the chip's latest, above the counter at the challenge, and was accepted after the challenge.
 */
export async function openedAfterChallenge(
  em: EntityManager,
  chip: { companyId: string; environment: Environment; chipUid: string },
  counter: number | null,
  challenge: OpenChallenge,
): Promise<boolean> {
  if (counter === null || (challenge.chipCounter !== null && counter <= challenge.chipCounter)) return false;
  const rows = await em.execute(
    `select 1 from chips where company_id = ? and environment = ? and chip_uid = ? and sun_counter = ?
       and last_verified_at >= ?`,
    [chip.companyId, chip.environment, chip.chipUid, counter, challenge.issuedAt],
  );
  return rows.length > 0;
}
