import { type EntityManager, UniqueConstraintViolationException } from '@mikro-orm/postgresql';
import { Chip } from '../platform/db/entities/index.ts';
import { ownedBy, TENANT_FILTER, type TenantScope } from '../platform/db/tenant-scope.ts';
import { DomainError } from '../platform/errors.ts';
import { normalizeChipUid } from '../standards/sun/index.ts';
import { recordEvent } from '../webhooks/outbox.ts';
import { raiseEnrolledElsewhere } from './signals/enrolled-elsewhere.ts';

/** Canonical chip UID (14 uppercase hex digits) or a 400-class domain error naming what is wrong. */
export function canonicalChipUid(input: string): string {
  const result = normalizeChipUid(input);
  if (!result.ok) throw new DomainError('invalid', 'invalid_chip_uid', result.message);
  return result.uid;
}

export async function findChip(em: EntityManager, chipUid: string): Promise<Chip> {
  const uid = canonicalChipUid(chipUid);
  const chip = await em.findOne(Chip, { chipUid: uid });
  if (!chip)
    throw new DomainError('not_found', 'chip_not_found', `Chip ${uid} is not enrolled in this environment.`);
  return chip;
}

/**
 * Enrolls a chip into the company's inventory (status INACTIVE) and queues asset.initialized. Enrolling
 * the same chip again is idempotent for its owner (`created: false`, no second event); a chip enrolled by
 * another company is a conflict.
 */
export async function enrollChip(
  em: EntityManager,
  scope: TenantScope,
  input: { chipUid: string; productId: string | null; chipType?: string | undefined },
): Promise<{ chip: Chip; created: boolean }> {
  const chipUid = canonicalChipUid(input.chipUid);
  const existing = await em.findOne(Chip, { chipUid });
  if (existing) return { chip: existing, created: false };
  try {
    const chip = await em.transactional(async (tx) => {
      const created = tx.create(Chip, {
        ...ownedBy(scope),
        chipUid,
        productId: input.productId,
        chipType: input.chipType ?? 'NTAG 424 DNA',
        status: 'INACTIVE',
        sunCounter: null,
        sunCounterRef: null,
        verificationCount: 0,
        lastVerifiedAt: null,
      });
      await tx.flush();
      recordEvent(tx, scope, 'asset.initialized', {
        chipUid,
        status: 'INACTIVE',
        enrolledAt: created.createdAt.toISOString(),
      });
      return created;
    });
    return { chip, created: true };
  } catch (error) {
    if (!(error instanceof UniqueConstraintViolationException)) throw error;
    const ours = await em.fork().findOne(Chip, { chipUid }, { filters: { [TENANT_FILTER]: scope } });
    if (ours) return { chip: ours, created: false };
    await raiseEnrolledElsewhere(em.fork(), scope, chipUid);
    throw chipEnrolledElsewhere(chipUid);
  }
}

/**
 * 409 for a chip that another company enrolled, or whose mint another company started. It tells only that the
 * UID is taken — never by whom or with which passport: a physical chip belongs to one product, and its UID is
 * no secret (the chip answers it to any reader); docs/minting.md "A chip of another company".
 */
export function chipEnrolledElsewhere(chipUid: string): DomainError {
  return new DomainError(
    'conflict',
    'chip_enrolled_elsewhere',
    `Chip ${chipUid} is already enrolled by another account.`,
  );
}
