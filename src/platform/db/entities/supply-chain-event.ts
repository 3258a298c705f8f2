import { defineEntity, type InferEntity, p } from '@mikro-orm/postgresql';
import { ENVIRONMENTS } from '../../config/config.ts';

/** One step in a passport's life (MINT, QC_PASSED, SHIPPED, RECYCLE_TRANSFER…), optionally anchored on chain. */
export const SupplyChainEvent = defineEntity({
  name: 'SupplyChainEvent',
  tableName: 'supply_chain_events',
  properties: {
    id: p.integer().primary().autoincrement(),
    companyId: p.uuid(),
    environment: p.enum(ENVIRONMENTS),
    tokenId: p.string().length(78),
    action: p.string().length(40),
    actor: p.string().length(200).nullable(),
    actorEmail: p.string().length(320).nullable(),
    locationName: p.string().length(200).nullable(),
    latitude: p.double().nullable(),
    longitude: p.double().nullable(),
    metadata: p.json<Record<string, unknown>>(),
    dataHash: p.string().length(66).nullable(),
    transactionHash: p.string().length(66).nullable(),
    blockNumber: p.bigint('number').nullable(),
    contractAddress: p.string().length(42).nullable(),
    timestamp: p.datetime(),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p
      .datetime()
      .onCreate(() => new Date())
      .onUpdate(() => new Date()),
  },
});
export type SupplyChainEvent = InferEntity<typeof SupplyChainEvent>;
