import type { EntityManager } from '@mikro-orm/postgresql';

/**
 * The resolver rules of a company's passports: the path prefixes its Digital Links and pages live under on
 * `host` (one per environment and GTIN), and the rule an old host applies once the passports live elsewhere:
 * every request under one of these prefixes answers 308 to the same path and query on the new host. The old
 * provider installs it for the leaving company only (other companies keep their links); a new instance of ours
 * applies it itself to requests addressed to an imported old host (docs/exit.md "The old host").
 */
export async function resolverRules(tx: EntityManager, companyId: string, host: string) {
  const keys = await tx.execute<{ environment: 'live' | 'test'; gtin: string }[]>(
    `select distinct environment, coalesce(gtin, '00000000000000') as gtin from passports where company_id = ?
     union select distinct environment, gtin from dpp_levels where company_id = ?
     order by environment, gtin`,
    [companyId, companyId],
  );
  const prefixes = keys.flatMap(({ environment, gtin }) => {
    const env = environment === 'test' ? '/test' : '';
    return [`${env}/01/${gtin}`, `${env}/verify/01/${gtin}`];
  });
  return {
    host,
    rules: [
      {
        match: 'path prefix',
        prefixes,
        action: 'redirect',
        status: 308,
        to: 'the new host, same path and query',
      },
    ],
  };
}
