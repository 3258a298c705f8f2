import { defineEntity, type InferEntity, p } from '@mikro-orm/postgresql';
import { ENVIRONMENTS } from '../../config/config.ts';

/** A company's NTAG 424 DNA SDM keys for one environment, encrypted at rest (see src/crypto/secret-box.ts). */
export const ChipKeys = defineEntity({
  name: 'ChipKeys',
  tableName: 'chip_keys',
  properties: {
    companyId: p.uuid().primary(),
    environment: p.enum(ENVIRONMENTS).primary(),
    metaReadKey: p.type('blob'),
    fileReadKey: p.type('blob'),
    updatedAt: p
      .datetime()
      .onCreate(() => new Date())
      .onUpdate(() => new Date()),
  },
});
export type ChipKeys = InferEntity<typeof ChipKeys>;
