import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { test } from 'vitest';
import { adminQuery, withDatabase } from '../../src/platform/db/admin.ts';
import { migrations } from '../../src/platform/db/migrations/index.ts';
import { migrate, openOrm } from '../../src/platform/db/orm.ts';

const outsideTransaction = (cls: unknown) =>
  (
    Object.create((cls as { prototype: object }).prototype) as { isTransactional(): boolean }
  ).isTransactional() === false;

test('a database migrated before the first concurrent-index migration takes the rest: indexes valid, recorded once', async () => {
  const first = migrations.findIndex((m) => outsideTransaction(m.class));
  assert.ok(first > 0, 'there is a non-transactional (create index concurrently) migration');
  const admin = process.env.TEST_DATABASE_URL;
  if (!admin) throw new Error('run through npm test');
  const name = `dpp_test_migrate_${randomBytes(4).toString('hex')}`;
  await adminQuery(admin, `create database ${name}`);
  const orm = await openOrm(withDatabase(admin, name), 3);
  try {
    await orm.migrator.up({ to: migrations[first - 1]!.name });
    const applied = await migrate(orm);
    assert.deepEqual(
      applied,
      migrations.slice(first).map((m) => m.name),
    );
    const conn = orm.em.getConnection();
    assert.deepEqual(
      await conn.execute('select indexrelid::regclass::text as name from pg_index where not indisvalid'),
      [],
    );
    assert.equal(
      (await conn.execute(`select 1 from pg_indexes where indexname = 'chips_company_id_idx'`)).length,
      1,
    );
    assert.deepEqual(await migrate(orm), [], 'nothing left to apply');
  } finally {
    await orm.close(true);
    await adminQuery(admin, `drop database if exists ${name} with (force)`);
  }
});
