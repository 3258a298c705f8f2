import { defineEntity, type InferEntity, p } from '@mikro-orm/postgresql';

/** A tenant: a brand or manufacturer. Spans both environments; everything it owns carries an environment. */
export const Company = defineEntity({
  name: 'Company',
  tableName: 'companies',
  properties: {
    id: p.uuid().primary(),
    name: p.string().length(200),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});
export type Company = InferEntity<typeof Company>;
