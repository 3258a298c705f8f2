import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { listPassports } from '../../src/passport/record/search-passports.ts';
import { scopedEntityManager, type TenantScope } from '../../src/platform/db/tenant-scope.ts';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';
import { scaledSizes, seedVolume } from '../support/volume-seed.ts';

interface PlanNode {
  'Node Type': string;
  'Index Name'?: string;
  'Shared Hit Blocks': number;
  'Shared Read Blocks': number;
  Plans?: PlanNode[];
}

function* nodes(plan: PlanNode): Generator<PlanNode> {
  yield plan;
  for (const child of plan.Plans ?? []) yield* nodes(child);
}

/**
 * Issue 39: the console's search by a fragment of a token id stays at its one-page cost after a brand's
 * latest thousands of mints, before any vacuum: the trigram index's pending list (which every search reads in
 * full) is kept to 64 kB (Migration20261129700000_search_pending_list). With PostgreSQL's default 4 MB the
 * same search read about 200 index pages here.
 */
describe('free-text passport search right after many mints', () => {
  let db: TestDatabase;
  const scope: TenantScope = { companyId: randomUUID(), environment: 'test' };
  let token = '';

  beforeAll(async () => {
    db = await createTestDatabase();
    const conn = db.orm.em.getConnection();
    await conn.execute('insert into companies (id, name) values (?, ?)', [scope.companyId, 'Volume']);
    const sizes = { ...scaledSizes(0.003), events: 10, deliveries: 10, resales: 10, users: 10, apiKeys: 1 };
    const seeded = await seedVolume(db.orm.em.fork(), scope, sizes, 'pl', () => {});
    token = seeded.tokens[1]!;
    // No vacuum: what a search meets between a brand's mints and the next autovacuum.
    await conn.execute('analyze passports');
  });
  afterAll(async () => {
    await db?.drop();
  });

  test('a token id fragment reads a few index pages and finds its passport', async () => {
    const em = db.orm.em.fork();
    const found = await listPassports(scopedEntityManager(em, scope), scope, {
      limit: 100,
      q: token.slice(-7),
    });
    assert.deepEqual(
      found.passports.map((passport) => passport.tokenId),
      [token],
    );
    const statements: string[] = [];
    const params: unknown[][] = [];
    const traced = db.orm.em.fork();
    const connection = traced.getConnection();
    const execute = connection.execute.bind(connection);
    connection.execute = ((sql: string, values: unknown[] = []) => {
      statements.push(sql);
      params.push(values);
      return execute(sql, values);
    }) as typeof connection.execute;
    await listPassports(scopedEntityManager(traced, scope), scope, { limit: 100, q: token.slice(-7) });
    connection.execute = execute;
    const [plan] = await db.orm.em
      .getConnection()
      .execute<{ 'QUERY PLAN': [{ Plan: PlanNode }] }[]>(
        `explain (analyze, buffers, format json) ${statements.at(-1)!}`,
        params.at(-1)!,
      );
    const root = plan!['QUERY PLAN'][0].Plan;
    const pages = root['Shared Hit Blocks'] + root['Shared Read Blocks'];
    assert.ok(pages <= 50, `the search read ${pages} pages`);
    assert.ok(
      [...nodes(root)].some((node) => node['Index Name'] === 'passports_search_text_trgm'),
      'the search reads the trigram index',
    );
  });
});
