import { defineEntity, type InferEntity, p } from '@mikro-orm/postgresql';
import { ENVIRONMENTS } from '../../config/config.ts';

/** One billable unit (e.g. a mint), unique per reference so a retried activity never counts twice. */
export const UsageRecord = defineEntity({
  name: 'UsageRecord',
  tableName: 'usage_records',
  properties: {
    id: p.bigint('number').primary().autoincrement(),
    companyId: p.uuid(),
    environment: p.enum(ENVIRONMENTS),
    metric: p.string().length(40),
    reference: p.string().length(200),
    occurredAt: p.datetime().onCreate(() => new Date()),
  },
});
export type UsageRecord = InferEntity<typeof UsageRecord>;
