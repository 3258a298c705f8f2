import { randomBytes } from 'node:crypto';
import { adminQuery, withDatabase } from '../../src/platform/db/admin.ts';
import { migrate, type Orm, openOrm } from '../../src/platform/db/orm.ts';

export interface TestDatabase {
  url: string;
  orm: Orm;
  drop(): Promise<void>;
}

function adminUrl(): string {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) throw new Error('TEST_DATABASE_URL is not set: run tests through `npm test` (scripts/test.ts).');
  return url;
}

/** A fresh, migrated database for one test file; dropped afterwards. */
export async function createTestDatabase(): Promise<TestDatabase> {
  const name = `dpp_test_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  // A copy of the run's migrated template (test/support/prebuilt.ts) when there is one; migrations are idempotent,
  // so migrate() then finds nothing pending unless the file runs outside the global setup.
  // A file that points TEST_DATABASE_URL at a server of its own (the database chaos) migrates there.
  const template =
    process.env.TEST_DATABASE_TEMPLATE_SERVER === adminUrl() ? process.env.TEST_DATABASE_TEMPLATE : undefined;
  await adminQuery(adminUrl(), `create database ${name}${template ? ` template ${template}` : ''}`);
  const url = withDatabase(adminUrl(), name);
  const orm = await openOrm(url, 5);
  await migrate(orm);
  return {
    url,
    orm,
    drop: async () => {
      await orm.close(true);
      await adminQuery(adminUrl(), `drop database if exists ${name} with (force)`);
    },
  };
}
