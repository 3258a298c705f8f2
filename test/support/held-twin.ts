import pg from 'pg';
import type { TenantScope } from '../../src/platform/db/tenant-scope.ts';

/**
 * Holds, in a transaction of its own, an uncommitted insert of the twin with this service internal id: a writer
 * inserting the same id waits on the unique index until `release()` rolls it back (then the writer's insert
 * goes through). How a test stops an import at a known chunk without any timing.
 */
export async function holdTwin(
  databaseUrl: string,
  scope: TenantScope,
  serviceInternalId: string,
): Promise<{ release(): Promise<void> }> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  await client.query('begin');
  await client.query(
    `insert into asset_twins (company_id, environment, service_internal_id, status) values ($1, $2, $3, 'INACTIVE')`,
    [scope.companyId, scope.environment, serviceInternalId],
  );
  return {
    async release() {
      await client.query('rollback');
      await client.end();
    },
  };
}
