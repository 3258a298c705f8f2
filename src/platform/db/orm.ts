import { Migrator } from '@mikro-orm/migrations';
import { MikroORM, type Options } from '@mikro-orm/postgresql';
import { entities, tenantOwnedEntities } from './entities/index.ts';
import { migrations } from './migrations/index.ts';
import { ReleasingPostgreSqlDriver } from './releasing-driver.ts';
import { TENANT_FILTER } from './tenant-scope.ts';

export type Orm = MikroORM;

export function ormOptions(databaseUrl: string, poolMax = 10): Options {
  return {
    clientUrl: databaseUrl,
    driver: ReleasingPostgreSqlDriver,
    entities,
    extensions: [Migrator],
    pool: { max: poolMax },
    // pg's pool: waiting for a connection (a new one, or a free one when all are busy) ends with an error
    // after 5 s instead of never, so a request against a stopped or saturated database gets a 503 in bounded time.
    driverOptions: { connectionTimeoutMillis: 5_000 },
    debug: false,
    allowGlobalContext: false,
    filters: {
      [TENANT_FILTER]: {
        cond: (args: Record<string, unknown>) => ({
          companyId: args.companyId,
          environment: args.environment,
        }),
        entity: tenantOwnedEntities,
        default: true,
        args: true,
      },
    },
    migrations: {
      migrationsList: migrations,
      transactional: true,
      allOrNothing: true,
      snapshot: false,
      silent: true,
    },
  };
}

export async function openOrm(databaseUrl: string, poolMax?: number): Promise<Orm> {
  return MikroORM.init(ormOptions(databaseUrl, poolMax));
}

/** A migration that declares `isTransactional() = false` (e.g. `create index concurrently`). */
function outsideTransaction(name: string): boolean {
  const cls = migrations.find((m) => m.name === name)?.class as
    | (new (
        ...args: never[]
      ) => unknown)
    | undefined;
  const probe = cls ? (Object.create(cls.prototype) as { isTransactional?: () => boolean }) : undefined;
  return probe?.isTransactional?.() === false;
}

/**
 * Applies committed migrations that have not run yet; returns their names. Consecutive transactional
 * migrations apply all or nothing in one transaction; a non-transactional one runs on its own after the ones
 * before it committed (its statements cannot run in a transaction, nor see tables an open one created).
 */
export async function migrate(orm: Orm): Promise<string[]> {
  const applied: string[] = [];
  let batch: string[] = [];
  const flush = async () => {
    if (batch.length === 0) return;
    const done = await orm.migrator.up({ migrations: batch });
    applied.push(...done.map((m) => m.name));
    batch = [];
  };
  for (const { name } of await orm.migrator.getPending()) {
    if (outsideTransaction(name)) {
      await flush();
      batch = [name];
      await flush();
    } else batch.push(name);
  }
  await flush();
  return applied;
}
