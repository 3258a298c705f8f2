import type { EntityManager } from '@mikro-orm/postgresql';
import { verifyTap } from '../../chips/verify-tap.ts';
import type { Environment } from '../../platform/config/config.ts';
import { DomainError } from '../../platform/errors.ts';
import type { SecretBox } from '../../platform/secret-box.ts';
import { parseSunMessage, sunPayloadOf } from '../../standards/sun/index.ts';
import { type ChallengePurpose, consumeClaimChallenge, openedAfterChallenge } from './claim-challenge.ts';

/**
 * The rule of every act that needs the person's tap made now (a buyer's claim, an owner's release for resale;
 * docs/resale.md "A tap made now"): their challenge for this act is used (once, in its window), the tap is
 * verified as verify-chip does and must be the passport's own chip, read after the challenge — a fresh tap, or
 * the tag's URL opened on the resolver after it (phones without Web NFC). Else 422, and nothing else happens.
 */
export async function requireTapMadeNow(
  em: EntityManager,
  box: SecretBox,
  input: {
    purpose: ChallengePurpose;
    environment: Environment;
    tokenId: string;
    email: string;
    challengeId: string;
    nfcData: string;
    chip: { companyId: string; chipUid: string };
    /** The act's own reference: its reading, accepted once, is accepted again for it (a retry). */
    reference: string;
  },
): Promise<void> {
  const parsed = parseSunMessage(input.nfcData);
  if (!parsed.ok) throw new DomainError('invalid', 'malformed_sun_payload', parsed.message);
  const challenge = await consumeClaimChallenge(em, {
    environment: input.environment,
    tokenId: input.tokenId,
    buyerEmail: input.email,
    challengeId: input.challengeId,
    purpose: input.purpose,
  });
  const tap = await verifyTap(
    em,
    box,
    { companyId: input.chip.companyId, environment: input.environment },
    { chipUid: input.chip.chipUid, sun: sunPayloadOf(parsed), reference: input.reference },
  );
  const chip = { ...input.chip, environment: input.environment };
  const madeNow =
    tap.authentic ||
    (tap.reason === 'replayed' && (await openedAfterChallenge(em, chip, tap.counter, challenge)));
  if (madeNow) return;
  const beforeChallenge = tap.reason === 'replayed';
  const detail = beforeChallenge
    ? `This tag reading was made before your ${input.purpose} started (a saved or copied link): tap the tag ` +
      `again now, or open its link on your phone, and ${input.purpose} within the challenge’s window.`
    : tap.reason === 'uid_mismatch'
      ? 'The tapped chip is not the one attached to this passport.'
      : 'The tap is not a genuine signature of this passport’s chip.';
  throw new DomainError('rejected', beforeChallenge ? 'tap_before_challenge' : 'tap_not_authentic', detail);
}
