import type { EntityManager } from '@mikro-orm/postgresql';
import { ApplicationFailure } from '@temporalio/activity';
import { type SunPayload, verifyTap } from '../../src/chips/verify-tap.ts';
import type { SecretBox } from '../../src/crypto/secret-box.ts';
import { Chip } from '../../src/db/entities/index.ts';
import type { TenantScope } from '../../src/db/tenant-scope.ts';

/**
 * A mint needs a genuine tap: the one it carries (shape A, its counter accepted under `reference` so a
 * retry is not mistaken for a replay), or for shape B one the chip showed before (verify-chip).
 */
export async function authorizeMintTap(
  em: EntityManager,
  secretBox: SecretBox,
  input: { scope: TenantScope; chipUid: string; sun: SunPayload | null; reference: string },
): Promise<void> {
  if (!input.sun) {
    const chip = await em.findOne(Chip, { chipUid: input.chipUid });
    if (!chip?.lastVerifiedAt) {
      throw ApplicationFailure.create({
        message: `Chip ${input.chipUid} has no verified tap yet: verify it (POST /v1/dpp/verify-chip) before a mint without nfcData.`,
        type: 'ChipNotVerified',
        nonRetryable: true,
      });
    }
    return;
  }
  const verdict = await verifyTap(em, secretBox, input.scope, {
    chipUid: input.chipUid,
    sun: input.sun,
    reference: input.reference,
  });
  if (!verdict.authentic) {
    throw ApplicationFailure.create({
      message: verdict.message,
      type: 'SunRejected',
      nonRetryable: true,
      details: [{ reason: verdict.reason, counter: verdict.counter }],
    });
  }
}
