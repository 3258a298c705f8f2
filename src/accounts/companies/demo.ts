import type { EntityManager } from '@mikro-orm/postgresql';
import { countCompanies, createCompanyWithKey } from './companies.ts';

/** On an empty database, creates a demo company and returns its first test key (shown once). */
export async function ensureDemoCompany(
  em: EntityManager,
): Promise<{ companyId: string; key: string } | undefined> {
  if ((await countCompanies(em)) > 0) return undefined;
  const created = await createCompanyWithKey(em, {
    name: 'Demo Company',
    environment: 'test',
    keyName: 'Demo key',
  });
  return { companyId: created.company.id, key: created.apiKey.key };
}
