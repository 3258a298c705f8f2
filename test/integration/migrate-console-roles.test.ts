import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import { test } from 'vitest';
import { adminQuery, withDatabase } from '../../src/platform/db/admin.ts';
import { migrations } from '../../src/platform/db/migrations/index.ts';
import { migrate, openOrm } from '../../src/platform/db/orm.ts';

const outsideTransaction = (cls: unknown) =>
  (
    Object.create((cls as { prototype: object }).prototype) as { isTransactional(): boolean }
  ).isTransactional() === false;

test('on an existing deployment each company’s first user becomes its owner, later people viewers', async () => {
  const at = migrations.findIndex((m) => m.name === 'Migration20261125400000_console_sessions');
  assert.ok(at > 0);
  const admin = process.env.TEST_DATABASE_URL;
  if (!admin) throw new Error('run through npm test');
  const name = `dpp_test_roles_${randomBytes(4).toString('hex')}`;
  await adminQuery(admin, `create database ${name}`);
  const orm = await openOrm(withDatabase(admin, name), 3);
  try {
    // As migrate() does it: concurrent-index migrations alone, outside a transaction, the others in batches.
    let batch: string[] = [];
    for (const migration of migrations.slice(0, at)) {
      if (outsideTransaction(migration.class)) {
        if (batch.length > 0) await orm.migrator.up({ migrations: batch });
        await orm.migrator.up({ migrations: [migration.name] });
        batch = [];
      } else batch.push(migration.name);
    }
    if (batch.length > 0) await orm.migrator.up({ migrations: batch });
    const conn = orm.em.getConnection();
    const [acme, globex] = [randomUUID(), randomUUID()];
    await conn.execute(
      `insert into companies (id, name, created_at) values (?, 'Acme', now()), (?, 'Globex', now())`,
      [acme, globex],
    );
    // Inserted out of order: the first by creation time owns the company, not the first inserted.
    await conn.execute(
      `insert into users (company_id, email, created_at) values
         (?, 'later@acme.example', now()),
         (?, 'founder@acme.example', now() - interval '30 days'),
         (?, 'only@globex.example', now())`,
      [acme, acme, globex],
    );
    await migrate(orm);
    const roles = await conn.execute<{ email: string; role: string }[]>(
      'select email, role from users order by email',
    );
    assert.deepEqual(roles, [
      { email: 'founder@acme.example', role: 'owner' },
      { email: 'later@acme.example', role: 'viewer' },
      { email: 'only@globex.example', role: 'owner' },
    ]);
    await assert.rejects(
      conn.execute(`update users set role = 'admin' where email = 'later@acme.example'`),
      /check constraint/,
      'only the three roles',
    );
    assert.deepEqual(await conn.execute('select count(*)::int as n from console_sessions'), [{ n: 0 }]);
  } finally {
    await orm.close(true);
    await adminQuery(admin, `drop database if exists ${name} with (force)`);
  }
});
