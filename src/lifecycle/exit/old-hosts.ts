import type { EntityManager } from '@mikro-orm/postgresql';

/** The host (`name[:port]`, lower case) of a base URL, as a request's Host header names it. */
export function hostOf(baseUrl: string): string {
  const url = new URL(baseUrl);
  return url.host.toLowerCase();
}

/** Records that requests addressed to `oldBaseUrl` are this instance's to answer (an import's --old-host). */
export async function recordOldHost(em: EntityManager, oldBaseUrl: string, companyId: string): Promise<void> {
  await em.execute(
    'insert into exit_old_hosts (host, company_id) values (?, ?) on conflict (host) do nothing',
    [hostOf(oldBaseUrl), companyId],
  );
}

/** Every old host this instance answers for. */
export async function oldHosts(em: EntityManager): Promise<Set<string>> {
  const rows = await em.execute<{ host: string }[]>('select host from exit_old_hosts');
  return new Set(rows.map((row) => row.host));
}
