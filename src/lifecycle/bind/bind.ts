import { type EntityManager, UniqueConstraintViolationException } from '@mikro-orm/postgresql';
import { canonicalChipUid, enrollChip } from '../../chips/enroll.ts';
import { AssetTwin, Chip, Passport } from '../../platform/db/entities/index.ts';
import type { TenantScope } from '../../platform/db/tenant-scope.ts';
import { DomainError } from '../../platform/errors.ts';

export async function findTwin(em: EntityManager, serviceInternalId: string): Promise<AssetTwin> {
  const twin = await em.findOne(AssetTwin, { serviceInternalId });
  if (!twin) {
    throw new DomainError(
      'not_found',
      'twin_not_found',
      `No provisioned twin ${serviceInternalId} in this environment.`,
    );
  }
  return twin;
}

function chipBoundElsewhere(chipUid: string): DomainError {
  return new DomainError(
    'conflict',
    'chip_already_bound',
    `Chip ${chipUid} is already bound to another twin.`,
  );
}

/**
 * Locks a provisioned twin to a chip: the twin and the chip become ACTIVE, the twin with `chipUid` set, in
 * one transaction (a chip not yet in the inventory is enrolled on the way, with asset.initialized). Hardware
 * identity is unique: a chip enrolled by another company, bound to another twin or holding a passport
 * already, and a twin already bound, are conflicts. `sameChipIsBound` lets a retry of the same binding
 * through (the toolbox path, whose mint follows).
 */
export async function bindTwin(
  em: EntityManager,
  scope: TenantScope,
  input: { serviceInternalId: string; chipUid: string; sameChipIsBound?: boolean },
): Promise<{ twin: AssetTwin; chipUid: string }> {
  const chipUid = canonicalChipUid(input.chipUid);
  const twin = await findTwin(em, input.serviceInternalId);
  if (twin.chipUid !== null) {
    if (twin.chipUid === chipUid && input.sameChipIsBound) return { twin, chipUid };
    throw new DomainError(
      'conflict',
      'twin_already_bound',
      `Twin ${twin.serviceInternalId} is already bound to chip ${twin.chipUid}.`,
    );
  }
  if (await em.count(AssetTwin, { chipUid })) throw chipBoundElsewhere(chipUid);
  const passport = await em.findOne(Passport, { chipUid }, { fields: ['tokenId'] });
  if (passport) {
    throw new DomainError(
      'conflict',
      'chip_already_registered',
      `Chip ${chipUid} already holds the passport of another product (token ${passport.tokenId}).`,
    );
  }
  await em.transactional(async (tx) => {
    const { chip } = await enrollChip(tx, scope, {
      chipUid,
      productId: twin.gtin ?? twin.materialNumber ?? null,
    });
    let updated: number;
    try {
      updated = await tx.nativeUpdate(
        AssetTwin,
        { id: twin.id, chipUid: null },
        { status: 'ACTIVE', chipUid, boundAt: new Date(), updatedAt: new Date() },
      );
    } catch (error) {
      if (error instanceof UniqueConstraintViolationException) throw chipBoundElsewhere(chipUid);
      throw error;
    }
    if (updated === 0) {
      throw new DomainError(
        'conflict',
        'twin_already_bound',
        `Twin ${twin.serviceInternalId} was bound meanwhile.`,
      );
    }
    await tx.nativeUpdate(Chip, { id: chip.id }, { status: 'ACTIVE', updatedAt: new Date() });
  });
  await em.refresh(twin);
  return { twin, chipUid };
}
