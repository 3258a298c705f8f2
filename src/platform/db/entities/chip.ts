import { defineEntity, type InferEntity, p } from '@mikro-orm/postgresql';
import { ENVIRONMENTS } from '../../config/config.ts';

export const CHIP_STATUSES = ['INACTIVE', 'ACTIVE'] as const;

/** A physical NFC chip in a company's inventory. `sunCounter` is the last accepted SUN read counter. */
export const Chip = defineEntity({
  name: 'Chip',
  tableName: 'chips',
  properties: {
    id: p.integer().primary().autoincrement(),
    companyId: p.uuid(),
    environment: p.enum(ENVIRONMENTS),
    chipUid: p.string().length(14),
    productId: p.string().length(200).nullable(),
    status: p.enum(CHIP_STATUSES),
    sunCounter: p.integer().nullable(),
    /** Who accepted `sunCounter` (e.g. a mint workflow id), so that caller's retry is not taken for a replay. */
    sunCounterRef: p.string().length(200).nullable(),
    verificationCount: p.integer().default(0),
    lastVerifiedAt: p.datetime().nullable(),
    /** 'NTAG 424 DNA' or 'NTAG 424 DNA TT' (TagTamper: its SDMENCFileData starts with the tamper status). */
    chipType: p.string().default('NTAG 424 DNA'),
    /** The current burst window of genuine taps (docs/signals.md): when it started and how many taps so far. */
    burstStartedAt: p.datetime().nullable(),
    burstTaps: p.integer().default(0),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p
      .datetime()
      .onCreate(() => new Date())
      .onUpdate(() => new Date()),
  },
});
export type Chip = InferEntity<typeof Chip>;
