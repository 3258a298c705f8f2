import type { Configuration } from '@mikro-orm/core';
import { PostgreSqlConnection, PostgreSqlDriver } from '@mikro-orm/postgresql';
import type { DatabaseConnection, Driver } from 'kysely';
import { isDatabaseUnavailable } from './availability.ts';

/**
 * Kysely (under MikroORM) releases a transaction's pooled connection only after BEGIN, COMMIT or ROLLBACK
 * succeeded. When the database goes away mid-transaction none of them can, and the connection stayed checked
 * out of the pool for good: after a database restart the pool ran dry and every request waited for a
 * connection that never came back. This driver lets go of such connections: a failed BEGIN releases its
 * connection, and a ROLLBACK that fails because the connection is gone counts as done (the server rolled the
 * transaction back when it lost the connection), so Kysely releases it and the pool discards it as broken.
 */
function releasingDriver(inner: Driver): Driver {
  return {
    init: (options) => inner.init(options),
    acquireConnection: (options) => inner.acquireConnection(options),
    releaseConnection: (connection, options) => inner.releaseConnection(connection, options),
    destroy: () => inner.destroy(),
    async beginTransaction(connection: DatabaseConnection, settings) {
      try {
        await inner.beginTransaction(connection, settings);
      } catch (error) {
        await inner.releaseConnection(connection).catch(() => {});
        throw error;
      }
    },
    commitTransaction: (connection) => inner.commitTransaction(connection),
    async rollbackTransaction(connection) {
      try {
        await inner.rollbackTransaction(connection);
      } catch (error) {
        if (!isDatabaseUnavailable(error)) throw error;
      }
    },
    ...(inner.savepoint ? { savepoint: inner.savepoint.bind(inner) } : {}),
    ...(inner.rollbackToSavepoint ? { rollbackToSavepoint: inner.rollbackToSavepoint.bind(inner) } : {}),
    ...(inner.releaseSavepoint ? { releaseSavepoint: inner.releaseSavepoint.bind(inner) } : {}),
  };
}

class ReleasingPostgreSqlConnection extends PostgreSqlConnection {
  override createKyselyDialect(
    overrides: Parameters<PostgreSqlConnection['createKyselyDialect']>[0],
  ): ReturnType<PostgreSqlConnection['createKyselyDialect']> {
    const dialect = super.createKyselyDialect(overrides);
    const createDriver = dialect.createDriver.bind(dialect);
    dialect.createDriver = () => releasingDriver(createDriver());
    return dialect;
  }
}

/** MikroORM's PostgreSQL driver on the connection above (the `driver` option of src/platform/db/orm.ts). */
export class ReleasingPostgreSqlDriver extends PostgreSqlDriver {
  constructor(config: Configuration) {
    super(config);
    Object.assign(this, { connection: new ReleasingPostgreSqlConnection(this.config) });
  }
}
