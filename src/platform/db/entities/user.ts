import { defineEntity, type InferEntity, p } from '@mikro-orm/postgresql';

/** A person who acts for a company. Like the company itself, a user spans both environments. */
export const User = defineEntity({
  name: 'User',
  tableName: 'users',
  properties: {
    id: p.integer().primary().autoincrement(),
    companyId: p.uuid(),
    email: p.string().length(320).unique(),
    passwordHash: p.string().nullable(),
    emailConfirmedAt: p.datetime().nullable(),
    failedLogins: p.integer().default(0),
    lockedUntil: p.datetime().nullable(),
    /** owner, developer or viewer (src/accounts/identity/roles.ts). */
    role: p.string().default('viewer'),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});
export type User = InferEntity<typeof User>;
