import { randomUUID } from 'node:crypto';
import { type EntityManager, UniqueConstraintViolationException } from '@mikro-orm/postgresql';
import { Chip, Passport, SupplyChainEvent, UsageRecord } from '../db/entities/index.ts';
import { ownedBy, type TenantScope } from '../db/tenant-scope.ts';
import { DomainError } from '../errors.ts';
import { recordEvent } from '../events/outbox.ts';
import type { MintProduct, PassportMetadata } from './metadata.ts';

export interface MintedPassport {
  chipUid: string;
  tokenId: string;
  ownerWallet: string;
  product: MintProduct;
  metadata: PassportMetadata;
  metadataUrl: string;
  transactionHash: string;
  blockNumber: number;
  mintedAt: Date;
  depositWei: string;
  depositDecimal: string;
  contractAddress: string;
  platformAddress: string;
}

/**
 * Persists a mined mint in one transaction: the passport row (every field of the spec's DPP token), a MINT
 * supply-chain event, the chip turning ACTIVE, asset.minted in the outbox and one billable mint. Repeating
 * it (an activity retry) changes nothing: the passport's unique chip rolls the transaction back and the
 * passport recorded the first time is returned. (Inserting first and reading only on a conflict spares the
 * common case a query.)
 */
export async function recordMint(
  em: EntityManager,
  scope: TenantScope,
  minted: MintedPassport,
): Promise<Passport> {
  try {
    return await insertMint(em, scope, minted);
  } catch (error) {
    if (error instanceof UniqueConstraintViolationException) {
      const existing = await em.findOne(Passport, { chipUid: minted.chipUid });
      if (existing) return existing;
    }
    throw error;
  }
}

function insertMint(em: EntityManager, scope: TenantScope, minted: MintedPassport): Promise<Passport> {
  return em.transactional(async (tx) => {
    const chip = await tx.findOne(Chip, { chipUid: minted.chipUid });
    if (!chip)
      throw new DomainError('not_found', 'chip_not_found', `Chip ${minted.chipUid} is not enrolled.`);
    chip.status = 'ACTIVE';
    const custom = minted.product.customDppData;
    const passport = tx.create(Passport, {
      ...ownedBy(scope),
      tokenId: minted.tokenId,
      chipId: chip.id,
      chipUid: minted.chipUid,
      productId: minted.product.productId ?? chip.productId ?? null,
      gtin: minted.product.gtin,
      ownerWallet: minted.ownerWallet,
      material: minted.product.material,
      warrantyExpiry: null,
      metadataUrl: minted.metadataUrl,
      erpMaterialId: typeof custom.erp_material_id === 'string' ? custom.erp_material_id : null,
      erpSerial: null,
      erpOrderId: typeof custom.erp_order_id === 'string' ? custom.erp_order_id : null,
      serviceUid: randomUUID(),
      parentUid: null,
      transactionHash: minted.transactionHash,
      mintBlock: minted.blockNumber,
      mintTimestamp: minted.mintedAt,
      lockedDepositWei: minted.depositWei,
      metadataCache: minted.metadata as unknown as Record<string, unknown>,
      contractAddress: minted.contractAddress,
      status: 'ACTIVE',
    });
    tx.create(SupplyChainEvent, {
      ...ownedBy(scope),
      tokenId: minted.tokenId,
      action: 'MINT',
      actor: minted.platformAddress,
      actorEmail: null,
      locationName: null,
      latitude: null,
      longitude: null,
      metadata: { to: minted.ownerWallet, metadataUrl: minted.metadataUrl },
      dataHash: null,
      transactionHash: minted.transactionHash,
      blockNumber: minted.blockNumber,
      contractAddress: minted.contractAddress,
      timestamp: minted.mintedAt,
    });
    recordEvent(tx, scope, 'asset.minted', {
      tokenId: minted.tokenId,
      chipUid: minted.chipUid,
      gtin: minted.product.gtin,
      service: minted.contractAddress,
      deposit: minted.depositDecimal,
      transactionHash: minted.transactionHash,
    });
    tx.create(UsageRecord, {
      ...ownedBy(scope),
      metric: 'mint',
      reference: `${scope.environment}:${minted.chipUid}`,
    });
    await tx.flush();
    return passport;
  });
}
