import { defineEntity, type InferEntity, p } from '@mikro-orm/postgresql';
import { ENVIRONMENTS } from '../../config/config.ts';

/** A company's NTAG 424 DNA SDM keys for one environment, encrypted at rest (see src/platform/secret-box.ts). */
export interface FileReadKeyDiversification {
  scheme: 'AN10922';
  /** Hex, appended to the UID as diversification input (may be empty). */
  systemIdentifier: string;
}

export const ChipKeys = defineEntity({
  name: 'ChipKeys',
  tableName: 'chip_keys',
  properties: {
    companyId: p.uuid().primary(),
    environment: p.enum(ENVIRONMENTS).primary(),
    metaReadKey: p.type('blob'),
    fileReadKey: p.type('blob'),
    /** AN10922 diversification of the file-read key per chip; null: used as it is. */
    fileReadKeyDiversification: p.json<FileReadKeyDiversification>().nullable(),
    updatedAt: p
      .datetime()
      .onCreate(() => new Date())
      .onUpdate(() => new Date()),
  },
});
export type ChipKeys = InferEntity<typeof ChipKeys>;
