import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { MikroORM } from '@mikro-orm/postgresql';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { currentUsage, PERIOD_USAGE, periodUsageParams } from '../../src/accounts/billing/usage.ts';
import { listApiKeys } from '../../src/accounts/keys/api-keys.ts';
import { listInventory } from '../../src/chips/inventory.ts';
import { listSignals, SIGNALS_MAX_PAGE } from '../../src/chips/signals/list-signals.ts';
import { latestResaleOfToken } from '../../src/lifecycle/resale/resale-records.ts';
import { findAasPassport, listAasPassports } from '../../src/passport/aas/aas-passports.ts';
import { listShells } from '../../src/passport/aas/aas-shells.ts';
import { listSubmodels } from '../../src/passport/aas/aas-submodels.ts';
import { listLevels } from '../../src/passport/levels/list-levels.ts';
import { listPassports } from '../../src/passport/record/search-passports.ts';
import { listSupplyChainEvents, tokenEvents } from '../../src/passport/timeline/list-events.ts';
import { PUBLIC_FACTS, STORED_CREDENTIAL } from '../../src/passport/views/fast-lookups.ts';
import { findPassport, findPassportWithHistory } from '../../src/passport/views/lookup.ts';
import { type Orm, ormOptions } from '../../src/platform/db/orm.ts';
import { scopedEntityManager, type TenantScope } from '../../src/platform/db/tenant-scope.ts';
import { listDeadLetters, listEndpointDeliveries } from '../../src/webhooks/delivery-queries.ts';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';
import { GTIN, OTHER_GTIN } from '../support/fixtures/products.ts';
import { BATCHED_GTIN, seedLevelsAndSignals } from '../support/levels-signals-seed.ts';
import { type SeededVolume, scaledSizes, seedVolume } from '../support/volume-seed.ts';

/**
 * The hot statements' plans on a company with 200,000 passports (issue 26): no sequential scan of a tenant
 * table and no sort of more than a page, so a page costs about the same at any size. Each entry runs the code
 * the API runs and explains every statement it sends (captured through the ORM's `onQuery`), so the SQL is the
 * real one. A new `list…` function in src/ without an entry here (or in NOT_HOT with its reason) fails.
 */

const TENANT_TABLES = new Set([
  'chips',
  'passports',
  'asset_twins',
  'supply_chain_events',
  'outbox_events',
  'webhook_deliveries',
  'webhook_attempts',
  'resales',
  'usage_reports',
  'usage_counts',
  'users',
  'api_keys',
  'dpp_levels',
  'chip_signals',
]);
/** The largest sort a page may do (the lists' largest page is 100 items here). */
const MAX_SORT_ROWS = 1_000;
/**
 * The most rows a statement may read from one tenant table (returned or filtered out, over all loops): a page
 * of 100 and what its joins touch, not a share of the company. Counted by EXPLAIN ANALYZE, so it is exact and
 * does not depend on timing; it catches plans without a sequential scan that still read from the start of an
 * index (a merge join walking a million-entry index up to the cursor).
 */
const MAX_ROWS_READ = 2_000;

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Plan Rows': number;
  'Actual Rows': number;
  'Actual Loops': number;
  'Rows Removed by Filter'?: number;
  'Rows Removed by Index Recheck'?: number;
  Plans?: PlanNode[];
}

function* nodes(plan: PlanNode): Generator<PlanNode> {
  yield plan;
  for (const child of plan.Plans ?? []) yield* nodes(child);
}

function outline(plan: PlanNode, depth = 0): string {
  const line = `${'  '.repeat(depth)}${plan['Node Type']}${plan['Relation Name'] ? ` on ${plan['Relation Name']}` : ''}${plan['Index Name'] ? ` using ${plan['Index Name']}` : ''} (~${plan['Plan Rows']} rows, read ${plan['Actual Rows']} × ${plan['Actual Loops']})`;
  return [line, ...(plan.Plans ?? []).map((child) => outline(child, depth + 1))].join('\n');
}

type Run = (ctx: {
  scoped: ReturnType<typeof scopedEntityManager>;
  scope: TenantScope;
  seeded: SeededVolume;
}) => Promise<unknown>;

/**
 * The console's passport search (GET /v1/dpp/passports) needs passports that differ: set in beforeAll on the
 * seeded ones (a rare GTIN on every 500th, a common one on the rest; 1,000 batches; every 50th revoked, every
 * 500th recycled).
 */
const searched = { passportId: 0, chipUid: '', tokenId: '', levelId: 0, signalCursor: '' };

/** Every hot statement: the code that sends it, as the API calls it. */
const HOT: Record<string, Run> = {
  'listPassports: first page': ({ scoped, scope }) => listPassports(scoped, scope, { limit: 100 }),
  'listPassports: middle page by cursor': ({ scoped, scope }) =>
    listPassports(scoped, scope, { limit: 100, after: searched.passportId }),
  'listPassports: by chip UID': ({ scoped, scope }) =>
    listPassports(scoped, scope, { limit: 100, chipUid: searched.chipUid }),
  'listPassports: by token id': ({ scoped, scope }) =>
    listPassports(scoped, scope, { limit: 100, tokenId: searched.tokenId }),
  'listPassports: by GTIN': ({ scoped, scope }) => listPassports(scoped, scope, { limit: 100, gtin: GTIN }),
  'listPassports: by GTIN, middle page': ({ scoped, scope }) =>
    listPassports(scoped, scope, { limit: 100, gtin: OTHER_GTIN, after: searched.passportId }),
  'listPassports: by batch': ({ scoped, scope }) =>
    listPassports(scoped, scope, { limit: 100, batch: 'LOT-7' }),
  'listPassports: active': ({ scoped, scope }) =>
    listPassports(scoped, scope, { limit: 100, status: 'ACTIVE' }),
  'listPassports: revoked': ({ scoped, scope }) =>
    listPassports(scoped, scope, { limit: 100, status: 'REVOKED' }),
  'listPassports: recycled, middle page': ({ scoped, scope }) =>
    listPassports(scoped, scope, { limit: 100, status: 'RECYCLED', after: searched.passportId }),
  'listPassports: GTIN and revoked': ({ scoped, scope }) =>
    listPassports(scoped, scope, { limit: 100, gtin: GTIN, status: 'REVOKED' }),
  'listPassports: batch and GTIN': ({ scoped, scope }) =>
    listPassports(scoped, scope, { limit: 100, batch: 'LOT-1', gtin: GTIN }),
  // Free text reads the trigram index (passports_search_text_trgm): a fragment of one chip's UID, any case.
  'listPassports: free text, part of a chip UID': ({ scoped, scope }) =>
    listPassports(scoped, scope, { limit: 100, q: searched.chipUid.slice(3, 13).toLowerCase() }),
  'listInventory: first page': ({ scoped, scope }) => listInventory(scoped, scope, { limit: 100 }),
  'listInventory: middle page': ({ scoped, scope, seeded }) =>
    listInventory(scoped, scope, { limit: 100, after: seeded.middleCursor }),
  'listInventory: last page': ({ scoped, scope, seeded }) =>
    listInventory(scoped, scope, { limit: 100, after: seeded.lastCursor }),
  'listSupplyChainEvents: company, first page': ({ scoped }) => listSupplyChainEvents(scoped, { limit: 100 }),
  'listSupplyChainEvents: company, by cursor': ({ scoped }) =>
    listSupplyChainEvents(scoped, { limit: 100, after: 100_000 }),
  'listSupplyChainEvents: one token': ({ scoped, seeded }) =>
    listSupplyChainEvents(scoped, { tokenId: seeded.tokens[1]!, limit: 100 }),
  'tokenEvents (custody)': ({ scoped, seeded }) => tokenEvents(scoped, seeded.tokens[1]!),
  'listEndpointDeliveries: first page': ({ scoped, seeded }) =>
    listEndpointDeliveries(scoped, seeded.endpointId, { limit: 100 }),
  'listEndpointDeliveries: dead ones': ({ scoped, seeded }) =>
    listEndpointDeliveries(scoped, seeded.endpointId, { status: 'dead', limit: 100 }),
  'listEndpointDeliveries: a rare status': ({ scoped, seeded }) =>
    listEndpointDeliveries(scoped, seeded.endpointId, { status: 'stopped', limit: 100 }),
  'listDeadLetters: first page': ({ scoped }) => listDeadLetters(scoped, { limit: 100 }),
  'listDeadLetters: one endpoint': ({ scoped, seeded }) =>
    listDeadLetters(scoped, { endpointId: seeded.endpointId, limit: 100 }),
  latestResaleOfToken: ({ scoped, scope, seeded }) => latestResaleOfToken(scoped, scope, seeded.tokens[1]!),
  listApiKeys: ({ scoped }) => listApiKeys(scoped),
  'currentUsage (billing meter)': ({ scoped, scope }) => currentUsage(scoped, scope),
  // Sent through their own prepared statements (poolQuery), not the ORM: sent here through the ORM's
  // connection with the same text ($n as ?) so they are captured.
  'PUBLIC_FACTS (resolver format=public)': ({ scoped, scope, seeded }) =>
    scoped
      .getConnection()
      .execute(PUBLIC_FACTS.replace(/\$\d+/g, '?'), [scope.environment, seeded.tokens[1]!]),
  'STORED_CREDENTIAL (resolver format=vc)': ({ scoped, scope, seeded }) =>
    scoped
      .getConnection()
      .execute(STORED_CREDENTIAL.replace(/\$\d+/g, '?'), [scope.environment, seeded.tokens[1]!]),
  'findPassport (resolver)': ({ scoped, scope, seeded }) =>
    findPassport(scoped, scope.environment, seeded.tokens[1]!),
  'findPassportWithHistory (resolver, verification page)': ({ scoped, scope, seeded }) =>
    findPassportWithHistory(scoped, scope.environment, seeded.tokens[1]!),
  // The AAS API (/api/v3.0) lists every active passport of an environment, across companies.
  'listAasPassports: first page (AAS API /shells)': ({ scoped, scope }) =>
    listAasPassports(scoped, scope.environment, { limit: 101 }),
  'listAasPassports: by cursor': ({ scoped, scope, seeded }) =>
    listAasPassports(scoped, scope.environment, { limit: 101, after: seeded.tokens[1]! }),
  'listAasPassports: from a submodel cursor (AAS API /submodels)': ({ scoped, scope, seeded }) =>
    listAasPassports(scoped, scope.environment, { limit: 27, from: seeded.tokens[2]! }),
  'listAasPassports: battery passports only (AAS API /submodels?idShort=Battery…)': ({ scoped, scope }) =>
    listAasPassports(scoped, scope.environment, { limit: 101, group: 'battery' }),
  'findAasPassport (AAS API, one shell)': ({ scoped, scope, seeded }) =>
    findAasPassport(scoped, scope.environment, seeded.tokens[1]!),
  'listShells: a page by cursor (GET /api/v3.0/shells)': ({ scoped, scope, seeded }) =>
    listShells(
      { em: scoped, environment: scope.environment, publicBaseUrl: 'https://dpp.example' },
      { limit: 100, cursor: Buffer.from(seeded.tokens[1]!).toString('base64url') },
    ),
  'listSubmodels: a page by cursor (GET /api/v3.0/submodels)': ({ scoped, scope, seeded }) =>
    listSubmodels(
      { em: scoped, environment: scope.environment, publicBaseUrl: 'https://dpp.example' },
      { limit: 100, cursor: Buffer.from(`${seeded.tokens[1]!}.1`).toString('base64url') },
    ),
  // The console's Models & batches list (GET /v1/dpp/levels).
  'listLevels: first page': ({ scoped, scope }) => listLevels(scoped, scope, { limit: 100 }),
  'listLevels: middle page by cursor': ({ scoped, scope }) =>
    listLevels(scoped, scope, { limit: 100, after: searched.levelId }),
  'listLevels: batches, middle page': ({ scoped, scope }) =>
    listLevels(scoped, scope, { limit: 100, granularity: 'batch', after: searched.levelId }),
  'listLevels: one GTIN’s model and lots': ({ scoped, scope }) =>
    listLevels(scoped, scope, { limit: 100, gtin: BATCHED_GTIN }),
  // The console's Signals page and GET /v1/dpp/signals.
  'listSignals: all, first page': ({ scoped, scope }) =>
    listSignals(scoped, scope, { status: 'all', limit: SIGNALS_MAX_PAGE }),
  'listSignals: open ones (a tenth)': ({ scoped, scope }) =>
    listSignals(scoped, scope, { status: 'open', limit: SIGNALS_MAX_PAGE }),
  'listSignals: open ones, middle page by cursor': ({ scoped, scope }) =>
    listSignals(scoped, scope, { status: 'open', limit: SIGNALS_MAX_PAGE, after: searched.signalCursor }),
  'listSignals: resolved ones': ({ scoped, scope }) =>
    listSignals(scoped, scope, { status: 'resolved', limit: SIGNALS_MAX_PAGE }),
  'listSignals: one passport': ({ scoped, scope, seeded }) =>
    listSignals(scoped, scope, { status: 'all', tokenId: seeded.tokens[1]!, limit: SIGNALS_MAX_PAGE }),
};

/** `list…` functions that are not hot at volume, and why. */
const NOT_HOT: Record<string, string> = {
  listOAuthClients: 'a handful of clients per company',
  listMembers: 'a company’s staff who sign in to the console: tens to hundreds, on users_company_id_idx',
  listChainTransactions:
    'operators’ report of the platform signers’ transactions: newest first by primary key, at most 1,000 rows',
  listEndpoints: 'a handful of endpoints per company',
  listEventDeliveries: 'one event: one delivery per endpoint (unique (event_id, endpoint_id))',
  listToolboxKeys: 'a handful of factory keys per company',
  listGrants:
    'a brand’s disclosure grants: one per partner company and role, on disclosure_grants_active, at most 1,000',
  listReceivedGrants: 'the grants made to one company: its brand partners, on disclosure_grants_grantee',
  listAuthorities: 'the operator’s register of market surveillance authorities: tens of rows, at most 10,000',
  listPasskeys: 'one person’s passkeys: a handful, on passkeys_user',
  listDppVersions:
    'one passport’s versions (one per content change), a page at a time by the unique (passport_id, number) index',
  listLevelVersions:
    'one model or batch passport’s versions (one per content change), by the unique (level_id, number) index',
  listRequestLogs:
    'one company’s request log in one environment: at most REQUEST_LOG_MAX_ROWS (10,000) rows, trimmed on ' +
    'every write, newest first on request_logs_newest',
  listTransfers:
    'a company’s transfer offers made and received (one per handed-over passport), on passport_transfers_from_idx ' +
    'and _to_idx, at most 500',
  listBackupPeers:
    'the providers allowed to push backup copies to this instance (an operator’s CLI listing; a handful of rows)',
};

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? sourceFiles(join(dir, entry.name))
      : entry.name.endsWith('.ts')
        ? [join(dir, entry.name)]
        : [],
  );
}

describe('hot statements at volume (EXPLAIN on 200,000 passports)', () => {
  let db: TestDatabase;
  let orm: Orm;
  let big: TenantScope;
  /** A company with nothing, in the same database: its pages must not read the big one's rows either. */
  let empty: TenantScope;
  let seeded: SeededVolume;
  const sent: { sql: string; params: readonly unknown[] }[] = [];

  beforeAll(async () => {
    db = await createTestDatabase();
    const options = ormOptions(db.url, 2);
    orm = await MikroORM.init({
      ...options,
      onQuery: (sql: string, params: readonly unknown[]) => {
        sent.push({ sql, params });
        return sql;
      },
    });
    big = { companyId: randomUUID(), environment: 'test' };
    empty = { companyId: randomUUID(), environment: 'test' };
    const conn = orm.em.getConnection();
    await conn.execute('insert into companies (id, name) values (?, ?), (?, ?)', [
      big.companyId,
      'Volume',
      empty.companyId,
      'Empty',
    ]);
    seeded = await seedVolume(
      orm.em.fork(),
      big,
      // Enough API keys that the planner does not read them all (a company has a handful).
      { ...scaledSizes(0.2), events: 200_000, deliveries: 200_000, apiKeys: 20_000 },
      'qp',
    );
    await conn.execute(
      `update passports set gtin = case when id % 500 = 1 then ? else ? end,
         metadata_cache = jsonb_build_object('name', 'Jacket',
           'custom_dpp_data', jsonb_build_object('batch_number', 'LOT-' || (id % 1000))),
         revoked_at = case when id % 50 = 1 then now() end,
         status = case when id % 500 = 0 then 'RECYCLED' else status end
       where company_id = ?`,
      [GTIN, OTHER_GTIN, big.companyId],
    );
    await conn.execute('vacuum analyze passports');
    const [middle] = await conn.execute<{ id: number; chip_uid: string; token_id: string }[]>(
      'select id, chip_uid, token_id from passports where environment = ? and token_id = ?',
      [big.environment, seeded.tokens[1]!],
    );
    Object.assign(searched, { passportId: middle!.id, chipUid: middle!.chip_uid, tokenId: middle!.token_id });
    Object.assign(searched, await seedLevelsAndSignals(conn, big));
  });
  afterAll(async () => {
    await orm?.close(true);
    await db?.drop();
  });

  test('every list function of src/ has an entry (hot) or a reason (not hot)', () => {
    const root = join(import.meta.dirname, '../../src');
    const lists = sourceFiles(root).flatMap((file) =>
      [...readFileSync(file, 'utf8').matchAll(/export (?:async )?function (list\w+)/g)].map((m) => m[1]!),
    );
    const covered = new Set([
      ...Object.keys(HOT).map((name) => name.split(/[ :]/)[0]!),
      ...Object.keys(NOT_HOT),
    ]);
    assert.deepEqual(
      lists.filter((name) => !covered.has(name)),
      [],
      'a new list statement needs an entry in HOT (or a reason in NOT_HOT)',
    );
  });

  test('the billing meter (hourly counts and the partial hours) counts what a count of the passports counts', async () => {
    const conn = orm.em.getConnection();
    const [span] = await conn.execute<{ first: Date; last: Date }[]>(
      'select min(created_at) as first, max(created_at) as last from passports where company_id = ?',
      [big.companyId],
    );
    const t0 = new Date(span!.first).getTime();
    const t1 = new Date(span!.last).getTime();
    const at = (share: number, offsetMs = 0) => new Date(t0 + (t1 - t0) * share + offsetMs);
    const hour = 3_600_000;
    const periods: [Date, Date][] = [
      [new Date(t0 - 10 * hour), new Date(t1 + 10 * hour)], // everything
      [at(0.25, 1_234), at(0.75, 56_789)], // ragged both ends
      [new Date(Math.floor(t0 / hour) * hour + 2 * hour), new Date(Math.floor(t1 / hour) * hour)], // whole hours
      [at(0.5, 1_000), at(0.5, 1_800_000)], // within an hour or across one boundary
      [at(0.5, 0), at(0.5, 0)], // empty
    ];
    for (const [start, end] of periods) {
      const [expected] = await conn.execute<{ mints: number; reported: number }[]>(
        `select count(*)::int as mints, count(u.passport_id)::int as reported
         from passports p left join usage_reports u on u.passport_id = p.id
         where p.company_id = ? and p.environment = ? and p.created_at >= ? and p.created_at < ?`,
        [big.companyId, big.environment, start, end],
      );
      const [actual] = await conn.execute(PERIOD_USAGE, periodUsageParams(big, start, end));
      assert.deepEqual(actual, expected, `${start.toISOString()} – ${end.toISOString()}`);
    }
  });

  for (const [name, run] of Object.entries(HOT)) {
    test(name, async () => {
      for (const scope of [big, empty]) {
        const scoped = scopedEntityManager(orm.em, scope);
        sent.length = 0;
        const ran = run({ scoped, scope, seeded });
        // The empty company has no endpoint of the seeded id: its list answers not found after the lookup.
        await (scope === empty ? ran.catch(() => undefined) : ran);
        const statements = sent.filter(({ sql }) => /^\s*(select|with)\b/i.test(sql));
        assert.ok(statements.length > 0, 'the entry sends at least one statement');
        await assertPlans(statements, scope === big ? 'volume company' : 'empty company');
      }
    });
  }

  async function assertPlans(statements: { sql: string; params: readonly unknown[] }[], who: string) {
    const conn = orm.em.getConnection();
    for (const { sql, params } of statements) {
      const [row] = await conn.execute<{ 'QUERY PLAN': [{ Plan: PlanNode }] }[]>(
        `explain (analyze, format json) ${sql.replace(/\$\d+/g, '?')}`,
        [...params],
      );
      const plan = row!['QUERY PLAN'][0].Plan;
      const problems = [...nodes(plan)].flatMap((node) => {
        if (node['Node Type'] === 'Seq Scan' && TENANT_TABLES.has(node['Relation Name'] ?? ''))
          return [`sequential scan of ${node['Relation Name']}`];
        if (node['Node Type'] === 'Sort' && node['Plan Rows'] > MAX_SORT_ROWS)
          return [`sort of ~${node['Plan Rows']} rows`];
        const removed = (node['Rows Removed by Filter'] ?? 0) + (node['Rows Removed by Index Recheck'] ?? 0);
        const read = (node['Actual Rows'] + removed) * node['Actual Loops'];
        if (TENANT_TABLES.has(node['Relation Name'] ?? '') && read > MAX_ROWS_READ)
          return [`${read} rows read from ${node['Relation Name']}`];
        return [];
      });
      assert.deepEqual(problems, [], `${who}: ${sql.slice(0, 600)}\n${outline(plan)}`);
    }
  }
});
