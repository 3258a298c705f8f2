import { defineEntity, type InferEntity, p } from '@mikro-orm/postgresql';
import { ENVIRONMENTS } from '../../config/config.ts';

/**
 * An API key. Only a SHA-256 hash of the key is stored; `lookupId` (a slice of the key's random part)
 * finds the row, then the hashes are compared in constant time.
 */
export const ApiKey = defineEntity({
  name: 'ApiKey',
  tableName: 'api_keys',
  properties: {
    id: p.uuid().primary(),
    companyId: p.uuid(),
    environment: p.enum(ENVIRONMENTS),
    name: p.string().length(100),
    prefix: p.string().length(32),
    lookupId: p.string().length(32).unique(),
    secretHash: p.string().length(64),
    createdAt: p.datetime().onCreate(() => new Date()),
    lastUsedAt: p.datetime().nullable(),
    revokedAt: p.datetime().nullable(),
  },
});
export type ApiKey = InferEntity<typeof ApiKey>;
