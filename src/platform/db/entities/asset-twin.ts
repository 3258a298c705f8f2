import { defineEntity, type InferEntity, p } from '@mikro-orm/postgresql';
import { ENVIRONMENTS } from '../../config/config.ts';
import { CHIP_STATUSES } from './chip.ts';

/**
 * A digital twin reserved from the ERP before any chip exists (INACTIVE); binding a chip locks it to the
 * physical item (ACTIVE, `chipUid` set, unique per environment).
 */
export const AssetTwin = defineEntity({
  name: 'AssetTwin',
  tableName: 'asset_twins',
  properties: {
    id: p.integer().primary().autoincrement(),
    companyId: p.uuid(),
    environment: p.enum(ENVIRONMENTS),
    serviceInternalId: p.string().length(24).unique(),
    status: p.enum(CHIP_STATUSES),
    materialNumber: p.string().length(100).nullable(),
    orderId: p.string().length(100).nullable(),
    gtin: p.string().length(14).nullable(),
    name: p.string().length(200).nullable(),
    /** The batch/lot (GS1 AI 10) the ERP named; the bound item's custom_dpp_data.batch_number (docs/granularity.md). */
    batch: p.string().length(20).nullable(),
    /** The product's declaration of conformity, if the ERP gave one (the toolbox bind's mint takes it). */
    conformityUrl: p.text().nullable(),
    chipUid: p.string().length(14).nullable(),
    boundAt: p.datetime().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p
      .datetime()
      .onCreate(() => new Date())
      .onUpdate(() => new Date()),
  },
});
export type AssetTwin = InferEntity<typeof AssetTwin>;
