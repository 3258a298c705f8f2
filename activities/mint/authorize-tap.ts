import type { EntityManager } from '@mikro-orm/postgresql';
import { ApplicationFailure } from '@temporalio/activity';
import { enrollChip } from '../../src/chips/enroll.ts';
import { type TapVerification, verifyTap } from '../../src/chips/verify-tap.ts';
import { verifyToolboxSignature } from '../../src/lifecycle/bind/toolbox-keys.ts';
import { AssetTwin, Chip } from '../../src/platform/db/entities/index.ts';
import type { TenantScope } from '../../src/platform/db/tenant-scope.ts';
import { DomainError } from '../../src/platform/errors.ts';
import type { SecretBox } from '../../src/platform/secret-box.ts';
import type { SunPayload } from '../../src/standards/sun/index.ts';

/**
 * A mint needs proof that the physical chip is there: the tap it carries (shape A, its counter accepted
 * under `reference` so a retry is not mistaken for a replay), the factory toolbox's signature over the twin
 * bound to this chip (factory bind shape B), or else a genuine tap the chip showed before (verify-chip).
 * With `enrollIfNew` (shape A for a chip not in the inventory yet) a genuine tap enrols the chip: enrolment
 * and the accepted counter commit together, so a refused tap leaves nothing behind.
 */
export async function authorizeMintTap(
  em: EntityManager,
  secretBox: SecretBox,
  input: {
    scope: TenantScope;
    chipUid: string;
    sun: SunPayload | null;
    toolbox?: { internalId: string; signature: string } | undefined;
    reference: string;
    enrollIfNew?: { productId: string | null } | undefined;
  },
): Promise<void> {
  if (!input.sun && input.toolbox) {
    await authorizeByToolbox(em, input.chipUid, input.toolbox);
    return;
  }
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
  const sun = input.sun;
  const verify = (tx: EntityManager) =>
    verifyTap(tx, secretBox, input.scope, { chipUid: input.chipUid, sun, reference: input.reference });
  const enrollment = input.enrollIfNew;
  const verdict = enrollment
    ? await enrollWithTap(em, input.scope, input.chipUid, enrollment.productId, verify)
    : await verify(em);
  if (!verdict.authentic) {
    throw ApplicationFailure.create({
      message: verdict.message,
      type: 'SunRejected',
      nonRetryable: true,
      details: [{ reason: verdict.reason, counter: verdict.counter }],
    });
  }
}

/** Rolls the enrolment back with the refused tap's verdict. */
class RefusedTap extends Error {
  readonly verdict: TapVerification;
  constructor(verdict: TapVerification) {
    super('refused tap');
    this.verdict = verdict;
  }
}

async function enrollWithTap(
  em: EntityManager,
  scope: TenantScope,
  chipUid: string,
  productId: string | null,
  verify: (tx: EntityManager) => Promise<TapVerification>,
): Promise<TapVerification> {
  try {
    return await em.transactional(async (tx) => {
      await enrollChip(tx, scope, { chipUid, productId });
      const verdict = await verify(tx);
      if (!verdict.authentic) throw new RefusedTap(verdict);
      return verdict;
    });
  } catch (error) {
    if (error instanceof RefusedTap) return error.verdict;
    throw error;
  }
}

async function authorizeByToolbox(
  em: EntityManager,
  chipUid: string,
  toolbox: { internalId: string; signature: string },
): Promise<void> {
  const twin = await em.findOne(AssetTwin, { serviceInternalId: toolbox.internalId });
  if (twin?.status !== 'ACTIVE' || twin.chipUid !== chipUid) {
    throw ApplicationFailure.create({
      message: `Twin ${toolbox.internalId} is not bound to chip ${chipUid}.`,
      type: 'ChipNotVerified',
      nonRetryable: true,
    });
  }
  try {
    await verifyToolboxSignature(em, {
      internalId: toolbox.internalId,
      chipUid,
      signatureHex: toolbox.signature,
    });
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    throw ApplicationFailure.create({ message: error.message, type: 'ChipNotVerified', nonRetryable: true });
  }
}
