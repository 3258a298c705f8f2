import { defineEntity, type InferEntity, p } from '@mikro-orm/postgresql';
import { ENVIRONMENTS } from '../../config/config.ts';

/** A minted DPP token (the spec's "DPP token" resource). */
export const Passport = defineEntity({
  name: 'Passport',
  tableName: 'passports',
  properties: {
    id: p.integer().primary().autoincrement(),
    companyId: p.uuid(),
    environment: p.enum(ENVIRONMENTS),
    tokenId: p.string().length(78),
    chipId: p.integer(),
    chipUid: p.string().length(14),
    productId: p.string().length(200).nullable(),
    gtin: p.string().length(14).nullable(),
    ownerWallet: p.string().length(42),
    material: p.string().length(200).nullable(),
    warrantyExpiry: p.datetime().nullable(),
    metadataUrl: p.text(),
    erpMaterialId: p.string().length(100).nullable(),
    erpSerial: p.string().length(100).nullable(),
    erpOrderId: p.string().length(100).nullable(),
    serviceUid: p.uuid(),
    parentUid: p.uuid().nullable(),
    transactionHash: p.string().length(66),
    mintBlock: p.bigint('number'),
    mintTimestamp: p.datetime(),
    lockedDepositWei: p.decimal('string'),
    metadataCache: p.json<Record<string, unknown>>(),
    contractAddress: p.string().length(42),
    status: p.string(),
    /** BitstringStatusList entry (list number and index), given when its first credential is issued. */
    statusList: p.integer().nullable(),
    statusListIndex: p.integer().nullable(),
    /** Revoked by its company or by recycling: the revocation bit of its status list entry is set. */
    revokedAt: p.datetime().nullable(),
    revocationReason: p.string().length(500).nullable(),
    /** EN 18222 status set by its company (suspended, archived); null: as revocation and recycling say. */
    dppStatus: p.string().nullable(),
    dppStatusReason: p.text().nullable(),
    dppStatusChangedAt: p.datetime().nullable(),
    /** Archived: kept (and readable) at least until then (docs/en18222.md, "Retention"). */
    retainUntil: p.datetime().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p
      .datetime()
      .onCreate(() => new Date())
      .onUpdate(() => new Date()),
  },
});
export type Passport = InferEntity<typeof Passport>;
