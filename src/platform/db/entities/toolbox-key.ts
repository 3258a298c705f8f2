import { defineEntity, type InferEntity, p } from '@mikro-orm/postgresql';
import { ENVIRONMENTS } from '../../config/config.ts';

export const TOOLBOX_KEY_ALGORITHMS = ['Ed25519', 'P-256'] as const;

/** A factory toolbox's public key; bind requests of shape B must be signed by an unrevoked one. */
export const ToolboxKey = defineEntity({
  name: 'ToolboxKey',
  tableName: 'toolbox_keys',
  properties: {
    id: p.uuid().primary(),
    companyId: p.uuid(),
    environment: p.enum(ENVIRONMENTS),
    name: p.string().length(200),
    algorithm: p.enum(TOOLBOX_KEY_ALGORITHMS),
    publicKeyPem: p.text(),
    createdAt: p.datetime().onCreate(() => new Date()),
    revokedAt: p.datetime().nullable(),
  },
});
export type ToolboxKey = InferEntity<typeof ToolboxKey>;
