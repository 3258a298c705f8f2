import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Environment } from '../../platform/config/config.ts';
import { Company, User } from '../../platform/db/entities/index.ts';
import { createApiKey } from '../keys/api-keys.ts';

export interface NewCompany {
  company: Company;
  user: User | undefined;
  apiKey: { id: string; key: string; environment: Environment };
}

/** Creates a tenant (optionally with its first user) and its first API key, in one transaction. */
export async function createCompanyWithKey(
  em: EntityManager,
  input: { name: string; email?: string; environment?: Environment; keyName?: string },
): Promise<NewCompany> {
  const environment = input.environment ?? 'test';
  return em.fork().transactional(async (tx) => {
    const company = tx.create(Company, { id: randomUUID(), name: input.name, createdAt: new Date() });
    const user = input.email
      ? tx.create(User, {
          companyId: company.id,
          email: input.email.toLowerCase(),
          role: 'owner', // the company's first user owns it
          createdAt: new Date(),
        })
      : undefined;
    await tx.flush();
    const { apiKey, key } = await createApiKey(
      tx,
      { companyId: company.id, environment },
      input.keyName ?? 'Default key',
    );
    return { company, user, apiKey: { id: apiKey.id, key, environment } };
  });
}

export async function countCompanies(em: EntityManager): Promise<number> {
  return em.fork().count(Company, {});
}
