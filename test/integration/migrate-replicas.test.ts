import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { afterAll, test } from 'vitest';
import { adminQuery, withDatabase } from '../../src/platform/db/admin.ts';
import { migrateExclusively } from '../../src/platform/db/migrate-lock.ts';
import { migrations } from '../../src/platform/db/migrations/index.ts';
import { type Orm, openOrm } from '../../src/platform/db/orm.ts';

const admin = process.env.TEST_DATABASE_URL!;
const name = `dpp_replicas_${randomBytes(4).toString('hex')}`;
const orms: Orm[] = [];

afterAll(async () => {
  for (const orm of orms) await orm.close(true);
  await adminQuery(admin, `drop database if exists ${name} with (force)`);
});

test('three replicas starting together on an empty database: one migrates, the others wait and find nothing pending', async () => {
  await adminQuery(admin, `create database ${name}`);
  const url = withDatabase(admin, name);
  for (let i = 0; i < 3; i++) orms.push(await openOrm(url, 3));
  const applied = await Promise.all(orms.map((orm) => migrateExclusively(url, orm)));
  const counts = applied.map((names) => names.length).sort((a, b) => a - b);
  assert.deepEqual(counts, [0, 0, migrations.length], 'every start succeeds; one applied them all');
  const recorded = await orms[0]!.em
    .getConnection()
    .execute<{ name: string; n: string }[]>(
      'select name, count(*) as n from mikro_orm_migrations group by name',
    );
  assert.equal(recorded.length, migrations.length);
  assert.ok(
    recorded.every((row) => Number(row.n) === 1),
    'each migration recorded once',
  );
  assert.deepEqual(await Promise.all(orms.map((orm) => orm.migrator.getPending())), [[], [], []]);
}, 300_000);
