import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { type EmbeddedDatabase, startEmbeddedPostgres } from '../../src/platform/db/embedded-postgres.ts';
import { freePort } from '../../src/platform/runtime/ports.ts';
import type { CallResult, TestTenant } from '../support/api.ts';
import { enrollAndMint } from '../support/fixtures/mint.ts';
import { startTestStack, type TestStack } from '../support/stack.ts';

const LOAD_MS = 9_000;
const STOP_AT_MS = 2_000;
const START_AT_MS = 5_000;
/** No caller waits longer than this for an answer, whatever the database does. */
const ANSWER_BOUND_MS = 15_000;

interface Outcome {
  kind: 'enroll' | 'provision' | 'log-event';
  status: number;
  code?: string;
  ms: number;
  ref?: string;
}

describe('PostgreSQL is stopped and started during mixed load (enroll, provision, log-event)', () => {
  let dataDir: string;
  let port: number;
  let database: EmbeddedDatabase;
  let stack: TestStack;
  let tenant: TestTenant;
  let tokenId: string;
  const call = (method: string, path: string, body?: unknown) =>
    stack.api.call(method, path, { key: tenant.testKey, ...(body === undefined ? {} : { body }) });

  beforeAll(async () => {
    // A PostgreSQL of its own that the test stops: every database of this file (API, worker) lives on it.
    dataDir = await mkdtemp(join(tmpdir(), 'dpp-chaos-pg-'));
    port = await freePort();
    database = await startEmbeddedPostgres({ dataDir, port, database: 'postgres' });
    process.env.TEST_DATABASE_URL = database.url;
    stack = await startTestStack({ mintWaitMs: 20_000 });
    tenant = await stack.api.createTenant('Acme Apparel');
    tokenId = await enrollAndMint(call, '04CA05DB000001');
  });
  afterAll(async () => {
    await stack?.close();
    await database?.stop().catch(() => {});
    await rm(dataDir, { recursive: true, force: true });
  });

  test('callers see 201, 503 (or 429) problems in bounded time, never 500; every acknowledged write is there after', async () => {
    const outcomes: Outcome[] = [];
    const deadline = Date.now() + LOAD_MS;
    let n = 0;
    const timed = async (kind: Outcome['kind'], request: () => Promise<CallResult>, ref?: string) => {
      const started = Date.now();
      const answer = await request();
      outcomes.push({ kind, status: answer.status, code: answer.body?.code, ms: Date.now() - started, ref });
      return answer;
    };
    const loop = async (work: () => Promise<void>) => {
      while (Date.now() < deadline) await work();
    };
    const load = Promise.all([
      loop(async () => {
        const chipUid = `04CA05DB1${String(n++).padStart(5, '0')}`;
        await timed('enroll', () => call('POST', '/v1/dpp/enroll', { chipUid }), chipUid);
      }),
      loop(async () => {
        const order = `PO-CHAOS-${n++}`;
        await timed(
          'provision',
          () =>
            call('POST', '/v1/erp/provision', { erp_metadata: { material_number: 'M', order_id: order } }),
          order,
        );
      }),
      loop(async () => {
        const answer = await timed('log-event', () =>
          call('POST', '/v1/iaas/log-event', {
            tokenId,
            action: 'SHIPPED',
            locationName: `Dock ${n++}`,
            latitude: 53.5,
            longitude: 9.9,
            metadata: {},
          }),
        );
        if (answer.status === 201) outcomes.at(-1)!.ref = String(answer.body.eventId);
      }),
    ]);
    await new Promise((resolve) => setTimeout(resolve, STOP_AT_MS));
    await database.stop();
    await new Promise((resolve) => setTimeout(resolve, START_AT_MS - STOP_AT_MS));
    database = await startEmbeddedPostgres({ dataDir, port, database: 'postgres' });
    await load;
    // No pooled connection is left checked out by a transaction the outage broke (they used to leak, and the
    // pool ran dry after a restart).
    const pool = (await stack.api.db.orm.em.getConnection().getNativeClient()) as unknown as {
      totalCount: number;
      idleCount: number;
    };
    for (let i = 0; pool.idleCount < pool.totalCount; i++) {
      assert.ok(
        i < 50,
        `${pool.totalCount - pool.idleCount} connections still checked out after the load ended`,
      );
      await new Promise((resolve) => setTimeout(resolve, 100));
    }

    // A key that authenticated in the last two seconds is believed without its row (recent-keys.ts), so right after
    // the stop these callers pass authentication and meet the rate limit's per-process fallback: hammering at
    // hundreds of failed calls a second, they exceed 600 a minute and are told so (429), which is also an answer.
    const answered = (o: Outcome) =>
      o.status === 201 ||
      (o.status === 503 && o.code !== undefined) ||
      (o.status === 429 && o.code === 'rate_limited');
    const unexpected = outcomes.filter((o) => !answered(o));
    assert.deepEqual(unexpected, [], 'only 201, a 503 problem or a 429 rate_limited problem');
    assert.ok(
      outcomes.some((o) => o.status === 503),
      'the outage was seen (else this scenario tested nothing)',
    );
    const slowest = Math.max(...outcomes.map((o) => o.ms));
    assert.ok(slowest < ANSWER_BOUND_MS, `slowest answer ${slowest} ms`);

    const sql = <T>(query: string, params: unknown[]) =>
      stack.api.db.orm.em.fork().execute<T[]>(query, params);
    const acknowledged = (kind: Outcome['kind']) =>
      outcomes.filter((o) => o.kind === kind && o.status === 201).map((o) => o.ref!);
    const chips = acknowledged('enroll');
    const orders = acknowledged('provision');
    const events = acknowledged('log-event').map(Number);
    assert.ok(chips.length > 0 && orders.length > 0 && events.length > 0);
    assert.equal((await sql(`select 1 from chips where chip_uid in (?)`, [chips])).length, chips.length);
    assert.equal(
      (await sql(`select 1 from asset_twins where order_id in (?)`, [orders])).length,
      orders.length,
    );
    // Acknowledged events are stored, and their anchoring (a workflow that met the outage too) completes.
    for (let i = 0; ; i++) {
      const anchored = await sql<{ n: number }>(
        `select count(*)::int as n from supply_chain_events where id in (?) and transaction_hash is not null`,
        [events],
      );
      if (anchored[0]!.n === events.length) break;
      assert.ok(i < 300, `${anchored[0]!.n} of ${events.length} acknowledged events anchored`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  });
});
