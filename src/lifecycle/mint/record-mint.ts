import { randomUUID } from 'node:crypto';
import { type EntityManager, UniqueConstraintViolationException } from '@mikro-orm/postgresql';
import type { PassportMetadata } from '../../passport/record/metadata.ts';
import { recordPassportVersion } from '../../passport/record/passport-versions.ts';
import { Passport } from '../../platform/db/entities/index.ts';
import { ownedBy, type TenantScope } from '../../platform/db/tenant-scope.ts';
import { DomainError } from '../../platform/errors.ts';
import type { MintProduct } from '../../processes/mint.ts';

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

// One statement, so atomic without a transaction. Everything is written from the chip row, so a chip not
// enrolled in the scope writes nothing and returns no row; a conflict (the chip's passport or billable mint
// already recorded) fails the whole statement. Raw SQL bypasses the ORM's tenant filter, hence the explicit
// company and environment. The chip turns ACTIVE only if it is not already (as the unit of work would).
const INSERT_MINT = `
  with chip as (
    select id, product_id from chips
    where company_id = :companyId and environment = :environment and chip_uid = :chipUid
  ),
  passport as (
    insert into passports (company_id, environment, token_id, chip_id, chip_uid, product_id, gtin, owner_wallet,
      material, warranty_expiry, metadata_url, erp_material_id, erp_serial, erp_order_id, service_uid, parent_uid,
      transaction_hash, mint_block, mint_timestamp, locked_deposit_wei, metadata_cache, contract_address, status,
      created_at, updated_at)
    select :companyId, :environment, :tokenId, chip.id, :chipUid, coalesce(:productId, chip.product_id), :gtin,
      :ownerWallet, :material, null, :metadataUrl, :erpMaterialId, null, :erpOrderId, :serviceUid, null,
      :transactionHash, :blockNumber, :mintedAt, :depositWei, :metadataCache, :contractAddress, 'ACTIVE',
      :now, :now
    from chip
    returning id, chip_id, product_id
  ),
  mint_event as (
    insert into supply_chain_events (company_id, environment, token_id, action, actor, actor_email, location_name,
      latitude, longitude, metadata, data_hash, transaction_hash, block_number, contract_address, timestamp,
      created_at, updated_at)
    select :companyId, :environment, :tokenId, 'MINT', :platformAddress, null, null, null, null, :eventMetadata,
      null, :transactionHash, :blockNumber, :contractAddress, :mintedAt, :now, :now
    from passport
  ),
  outbox as (
    insert into outbox_events (id, company_id, environment, event_type, data, occurred_at, dispatched_at)
    select :eventId, :companyId, :environment, 'asset.minted', :eventData, :now, null
    from passport
  ),
  usage as (
    insert into usage_records (company_id, environment, metric, reference, occurred_at)
    select :companyId, :environment, 'mint', :usageReference, :now
    from passport
  ),
  activated as (
    update chips set status = 'ACTIVE', updated_at = :now
    where company_id = :companyId and environment = :environment and id in (select chip_id from passport)
      and status <> 'ACTIVE'
  )
  select id, chip_id, product_id from passport`;

/**
 * Persists a mined mint in one transaction: one statement writes the passport row (every field of the spec's
 * DPP token), a MINT supply-chain event, the chip turning ACTIVE, asset.minted in the outbox and one billable
 * mint; then the passport's first content version is recorded. Repeating it (an activity retry) changes
 * nothing: the passport's unique chip fails the statement and the passport recorded the first time is returned
 * (its version recorded if it has none). (Inserting first and reading only on a conflict spares the common case
 * a query.) `publicBaseUrl` names the resolver the version's header points at.
 */
export async function recordMint(
  em: EntityManager,
  scope: TenantScope,
  minted: MintedPassport,
  publicBaseUrl: string,
): Promise<Passport> {
  try {
    return await em.transactional(async (tx) => {
      const passport = await insertMint(tx, scope, minted);
      await recordPassportVersion(tx, passport.id, publicBaseUrl, { inserted: true });
      return passport;
    });
  } catch (error) {
    if (error instanceof UniqueConstraintViolationException) {
      const existing = await em.findOne(Passport, { chipUid: minted.chipUid });
      if (existing) {
        await em.transactional((tx) => recordPassportVersion(tx, existing.id, publicBaseUrl));
        return existing;
      }
    }
    throw error;
  }
}

async function insertMint(em: EntityManager, scope: TenantScope, minted: MintedPassport): Promise<Passport> {
  const now = new Date();
  const custom = minted.product.customDppData;
  const passport = {
    ...ownedBy(scope),
    tokenId: minted.tokenId,
    chipUid: minted.chipUid,
    gtin: minted.product.gtin ?? null,
    ownerWallet: minted.ownerWallet,
    material: minted.product.material ?? null,
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
    statusList: null,
    statusListIndex: null,
    revokedAt: null,
    revocationReason: null,
    dppStatus: null,
    dppStatusReason: null,
    dppStatusChangedAt: null,
    retainUntil: null,
    createdAt: now,
    updatedAt: now,
  };
  const event = {
    tokenId: minted.tokenId,
    chipUid: minted.chipUid,
    gtin: minted.product.gtin,
    service: minted.contractAddress,
    deposit: minted.depositDecimal,
    transactionHash: minted.transactionHash,
  };
  const [row] = await em.execute<{ id: number; chip_id: number; product_id: string | null }[]>(INSERT_MINT, {
    companyId: scope.companyId,
    environment: scope.environment,
    chipUid: passport.chipUid,
    tokenId: passport.tokenId,
    productId: minted.product.productId ?? null,
    gtin: passport.gtin,
    ownerWallet: passport.ownerWallet,
    material: passport.material,
    metadataUrl: passport.metadataUrl,
    erpMaterialId: passport.erpMaterialId,
    erpOrderId: passport.erpOrderId,
    serviceUid: passport.serviceUid,
    transactionHash: passport.transactionHash,
    blockNumber: passport.mintBlock,
    mintedAt: passport.mintTimestamp,
    depositWei: passport.lockedDepositWei,
    metadataCache: JSON.stringify(passport.metadataCache),
    contractAddress: passport.contractAddress,
    platformAddress: minted.platformAddress,
    eventMetadata: JSON.stringify({ to: minted.ownerWallet, metadataUrl: minted.metadataUrl }),
    eventId: randomUUID(),
    eventData: JSON.stringify(event),
    usageReference: `${scope.environment}:${minted.chipUid}`,
    now,
  });
  if (!row) throw new DomainError('not_found', 'chip_not_found', `Chip ${minted.chipUid} is not enrolled.`);
  return { ...passport, id: row.id, chipId: row.chip_id, productId: row.product_id };
}
