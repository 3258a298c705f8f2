import { randomUUID } from 'node:crypto';
import { type EntityManager, UniqueConstraintViolationException } from '@mikro-orm/postgresql';
import type { PassportMetadata } from '../../passport/record/metadata.ts';
import { nextPassportVersion, recordPassportVersion } from '../../passport/record/passport-versions.ts';
import { Passport } from '../../platform/db/entities/index.ts';
import { ownedBy, type TenantScope } from '../../platform/db/tenant-scope.ts';
import { DomainError } from '../../platform/errors.ts';
import type { MintProduct } from '../../processes/mint.ts';
import { mintFacts } from './mint-version.ts';

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
// company and environment. The chip turns ACTIVE only if it is not already (as the unit of work would). The
// passport and its MINT event take the ids mintFacts drew, so the passport's first version, whose document
// names them, is written by the same statement.
const INSERT_MINT = `
  with chip as (
    select id, product_id from chips
    where company_id = :companyId and environment = :environment and chip_uid = :chipUid
  ),
  passport as (
    insert into passports (id, company_id, environment, token_id, chip_id, chip_uid, product_id, gtin, owner_wallet,
      material, warranty_expiry, metadata_url, erp_material_id, erp_serial, erp_order_id, service_uid, parent_uid,
      transaction_hash, mint_block, mint_timestamp, locked_deposit_wei, metadata_cache, contract_address, status,
      created_at, updated_at)
    select :passportId, :companyId, :environment, :tokenId, chip.id, :chipUid, :productId, :gtin,
      :ownerWallet, :material, null, :metadataUrl, :erpMaterialId, null, :erpOrderId, :serviceUid, null,
      :transactionHash, :blockNumber, :mintedAt, :depositWei, :metadataCache, :contractAddress, 'ACTIVE',
      :now, :now
    from chip
    returning id, chip_id, product_id
  ),
  mint_event as (
    insert into supply_chain_events (id, company_id, environment, token_id, action, actor, actor_email, location_name,
      latitude, longitude, metadata, data_hash, transaction_hash, block_number, contract_address, timestamp,
      created_at, updated_at)
    select :eventId, :companyId, :environment, :tokenId, 'MINT', :platformAddress, null, null, null, null, :eventMetadata,
      null, :transactionHash, :blockNumber, :contractAddress, :mintedAt, :now, :now
    from passport
  ),
  outbox as (
    insert into outbox_events (id, company_id, environment, event_type, data, occurred_at, dispatched_at)
    select :outboxId, :companyId, :environment, 'asset.minted', :eventData, :now, null
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
  ),
  version as (
    insert into passport_versions (company_id, environment, passport_id, number, sha256, public_sha256, content,
      created_at)
    select :companyId, :environment, passport.id, :versionNumber, :versionSha256, :versionPublicSha256,
      :versionContent, :versionAt
    from passport
  )
  select id, chip_id, product_id from passport`;

/**
 * Persists a mined mint in two round trips and no explicit transaction: mintFacts reads what the database adds
 * (ids, the chip's product, header settings, levels), then one statement writes the passport row (every field
 * of the spec's DPP token), a MINT supply-chain event, the chip turning ACTIVE, asset.minted in the outbox, one
 * billable mint and the passport's first content version. Repeating it (an activity retry) changes nothing:
 * the passport's unique chip fails the statement and the passport recorded the first time is returned (its
 * version recorded if it has none). `publicBaseUrl` names the resolver the version's header points at.
 */
export async function recordMint(
  em: EntityManager,
  scope: TenantScope,
  minted: MintedPassport,
  publicBaseUrl: string,
): Promise<Passport> {
  try {
    return await insertMint(em, scope, minted, publicBaseUrl);
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

function notEnrolled(chipUid: string): DomainError {
  return new DomainError('not_found', 'chip_not_found', `Chip ${chipUid} is not enrolled.`);
}

async function insertMint(
  em: EntityManager,
  scope: TenantScope,
  minted: MintedPassport,
  publicBaseUrl: string,
): Promise<Passport> {
  const now = new Date();
  const custom = minted.product.customDppData;
  const eventMetadata = { to: minted.ownerWallet, metadataUrl: minted.metadataUrl };
  const row = {
    tokenId: minted.tokenId,
    chipUid: minted.chipUid,
    productId: minted.product.productId ?? null,
    gtin: minted.product.gtin ?? null,
    ownerWallet: minted.ownerWallet,
    material: minted.product.material ?? null,
    metadataUrl: minted.metadataUrl,
    metadata: minted.metadata as unknown as Record<string, unknown>,
    erpMaterialId: typeof custom.erp_material_id === 'string' ? custom.erp_material_id : null,
    erpOrderId: typeof custom.erp_order_id === 'string' ? custom.erp_order_id : null,
    serviceUid: randomUUID(),
    transactionHash: minted.transactionHash,
    mintedAt: minted.mintedAt,
    depositWei: minted.depositWei,
    contractAddress: minted.contractAddress,
    platformAddress: minted.platformAddress,
    eventMetadata,
  };
  const prepared = await mintFacts(em, scope, row);
  if (!prepared) throw notEnrolled(minted.chipUid);
  const version = nextPassportVersion(prepared.facts, publicBaseUrl, undefined);
  const event = {
    tokenId: minted.tokenId,
    chipUid: minted.chipUid,
    gtin: minted.product.gtin,
    service: minted.contractAddress,
    deposit: minted.depositDecimal,
    transactionHash: minted.transactionHash,
  };
  const [inserted] = await em.execute<{ id: number; chip_id: number; product_id: string | null }[]>(
    INSERT_MINT,
    {
      passportId: prepared.passportId,
      companyId: scope.companyId,
      environment: scope.environment,
      chipUid: row.chipUid,
      tokenId: row.tokenId,
      productId: prepared.facts.productId,
      gtin: row.gtin,
      ownerWallet: row.ownerWallet,
      material: row.material,
      metadataUrl: row.metadataUrl,
      erpMaterialId: row.erpMaterialId,
      erpOrderId: row.erpOrderId,
      serviceUid: row.serviceUid,
      transactionHash: row.transactionHash,
      blockNumber: minted.blockNumber,
      mintedAt: row.mintedAt,
      depositWei: row.depositWei,
      metadataCache: JSON.stringify(row.metadata),
      contractAddress: row.contractAddress,
      platformAddress: row.platformAddress,
      eventId: prepared.eventId,
      eventMetadata: JSON.stringify(eventMetadata),
      outboxId: randomUUID(),
      eventData: JSON.stringify(event),
      usageReference: `${scope.environment}:${minted.chipUid}`,
      versionNumber: version.number,
      versionSha256: version.sha256,
      versionPublicSha256: version.publicSha256,
      versionContent: JSON.stringify(version.content),
      versionAt: version.createdAt,
      now,
    },
  );
  if (!inserted) throw notEnrolled(minted.chipUid);
  return {
    ...ownedBy(scope),
    id: inserted.id,
    chipId: inserted.chip_id,
    productId: inserted.product_id,
    tokenId: row.tokenId,
    chipUid: row.chipUid,
    gtin: row.gtin,
    ownerWallet: row.ownerWallet,
    material: row.material,
    warrantyExpiry: null,
    metadataUrl: row.metadataUrl,
    erpMaterialId: row.erpMaterialId,
    erpSerial: null,
    erpOrderId: row.erpOrderId,
    serviceUid: row.serviceUid,
    parentUid: null,
    transactionHash: row.transactionHash,
    mintBlock: minted.blockNumber,
    mintTimestamp: row.mintedAt,
    lockedDepositWei: row.depositWei,
    metadataCache: row.metadata,
    contractAddress: row.contractAddress,
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
}
