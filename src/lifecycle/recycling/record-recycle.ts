import type { EntityManager } from '@mikro-orm/postgresql';
import { LockMode } from '@mikro-orm/postgresql';
import { recordPassportVersion } from '../../passport/record/passport-versions.ts';
import { Passport, SupplyChainEvent } from '../../platform/db/entities/index.ts';
import { ownedBy, type TenantScope } from '../../platform/db/tenant-scope.ts';
import { DomainError } from '../../platform/errors.ts';
import { recordEvent } from '../../webhooks/outbox.ts';

export interface RecycledOnChain {
  tokenId: string;
  recycler: string;
  rewardReceiver: string;
  amountWei: string;
  amountDecimal: string;
  transactionHash: string;
  blockNumber: number;
  recycledAt: Date;
  contractAddress: string;
  location: { locationName: string; latitude: number; longitude: number };
}

/**
 * Persists a mined recycle in one transaction: a RECYCLE_TRANSFER supply-chain event (from the contract to
 * the reward receiver), the passport turning RECYCLED (and its credential revoked) with no deposit locked, and
 * asset.recycled in the outbox, and the passport's new content version. The passport row is locked first, so a retry (or a concurrent run) finds it RECYCLED and
 * changes nothing.
 */
export async function recordRecycle(
  em: EntityManager,
  scope: TenantScope,
  recycled: RecycledOnChain,
  publicBaseUrl: string,
): Promise<{ passportId: number; alreadyRecorded: boolean }> {
  return em.transactional(async (tx) => {
    const passport = await tx.findOne(
      Passport,
      { tokenId: recycled.tokenId },
      { lockMode: LockMode.PESSIMISTIC_WRITE },
    );
    if (!passport) {
      throw new DomainError(
        'not_found',
        'passport_not_found',
        `No passport with token id ${recycled.tokenId}.`,
      );
    }
    if (passport.status === 'RECYCLED') return { passportId: passport.id, alreadyRecorded: true };
    passport.status = 'RECYCLED';
    passport.lockedDepositWei = '0';
    // A recycled product's passport credential is revoked (its status list bit is set).
    passport.revokedAt ??= recycled.recycledAt;
    passport.revocationReason ??= 'recycled';
    tx.create(SupplyChainEvent, {
      ...ownedBy(scope),
      tokenId: recycled.tokenId,
      action: 'RECYCLE_TRANSFER',
      actor: recycled.recycler,
      actorEmail: null,
      locationName: recycled.location.locationName,
      latitude: recycled.location.latitude,
      longitude: recycled.location.longitude,
      metadata: {
        from: recycled.contractAddress,
        to: recycled.rewardReceiver,
        amount: recycled.amountDecimal,
        amountWei: recycled.amountWei,
      },
      dataHash: null,
      transactionHash: recycled.transactionHash,
      blockNumber: recycled.blockNumber,
      contractAddress: recycled.contractAddress,
      timestamp: recycled.recycledAt,
    });
    recordEvent(
      tx,
      scope,
      'asset.recycled',
      {
        tokenId: recycled.tokenId,
        recycler: recycled.recycler,
        rewardReceiver: recycled.rewardReceiver,
        depositReleased: recycled.amountDecimal,
        transactionHash: recycled.transactionHash,
      },
      recycled.recycledAt,
    );
    await tx.flush();
    await recordPassportVersion(tx, passport.id, publicBaseUrl);
    return { passportId: passport.id, alreadyRecorded: false };
  });
}
