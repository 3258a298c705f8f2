import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { createApp } from '../../api/app.ts';
import { PostgresBuckets } from '../../api/middleware/rate-limit.ts';
import { listen, type RunningHttpServer } from '../../api/server.ts';
import { type Orm, openOrm } from '../../src/platform/db/orm.ts';
import { createLogger } from '../../src/platform/logging/logger.ts';
import { startTestApi, type TestApi, type TestTenant } from '../support/api.ts';
import { type ApiProcess, startApiProcess } from '../support/api-process.ts';
import { waitFor } from '../support/wait-for.ts';

const PER_MINUTE = 20;

/**
 * Two API instances on one database, each with its own connection pool and nothing else in common (as two
 * API processes or hosts behind a load balancer): a credential's per-minute budget is spent from one bucket.
 */
describe('the rate limit is shared by API processes on one database', () => {
  let first: TestApi;
  let secondOrm: Orm;
  let second: RunningHttpServer;
  let tenant: TestTenant;

  beforeAll(async () => {
    first = await startTestApi({ RATE_LIMIT_PER_MINUTE: String(PER_MINUTE) });
    secondOrm = await openOrm(first.db.url, 5);
    second = await listen(
      createApp({ config: first.config, orm: secondOrm, logger: createLogger('silent') }),
      '127.0.0.1',
      0,
    );
    tenant = await first.createTenant();
  });
  afterAll(async () => {
    await second?.close(0);
    await secondOrm?.close(true);
    await first?.close();
  });

  const inventory = (baseUrl: string) =>
    fetch(`${baseUrl}/v1/dpp/inventory`, {
      headers: { 'x-service-env': 'test', authorization: `Bearer ${tenant.testKey}` },
    });

  test('alternating between the two, the budget counts down once and the next call is refused', async () => {
    const remaining: string[] = [];
    for (let i = 0; i < PER_MINUTE; i++) {
      const answer = await inventory(i % 2 === 0 ? first.baseUrl : second.url);
      assert.equal(answer.status, 200, `call ${i + 1}`);
      assert.equal(answer.headers.get('ratelimit-limit'), String(PER_MINUTE));
      remaining.push(answer.headers.get('ratelimit-remaining')!);
    }
    // Calls take milliseconds; a token takes 3 s to come back, so none refills during the loop.
    assert.deepEqual(
      remaining,
      Array.from({ length: PER_MINUTE }, (_, i) => String(PER_MINUTE - 1 - i)),
    );
    for (const baseUrl of [first.baseUrl, second.url]) {
      const refused = await inventory(baseUrl);
      assert.equal(refused.status, 429);
      assert.equal(refused.headers.get('content-type'), 'application/problem+json');
      assert.equal(refused.headers.get('ratelimit-remaining'), '0');
      const retryAfter = Number(refused.headers.get('retry-after'));
      assert.ok(retryAfter >= 1 && retryAfter <= 60 / PER_MINUTE, `Retry-After ${retryAfter}`);
      const problem = (await refused.json()) as { code: string; status: number; retryAfterSeconds: number };
      assert.equal(problem.code, 'rate_limited');
      assert.equal(problem.status, 429);
      assert.equal(problem.retryAfterSeconds, retryAfter);
    }
  });

  test('after Retry-After a token is back; after a quiet minute the whole budget is', async () => {
    const refused = await inventory(second.url);
    assert.equal(refused.status, 429);
    await new Promise((resolve) => setTimeout(resolve, Number(refused.headers.get('retry-after')) * 1000));
    assert.equal((await inventory(first.baseUrl)).status, 200, 'one token refilled after Retry-After');
    assert.equal((await inventory(second.url)).status, 429, 'and only one');

    // A minute without calls, without waiting it: the bucket's last take moves a minute back.
    await first.db.orm.em
      .getConnection()
      .execute(`update rate_limit_buckets set updated_at = updated_at - interval '61 seconds'`);
    const started = Date.now();
    const burst = await Promise.all(
      Array.from({ length: PER_MINUTE + 10 }, (_, i) => inventory(i % 2 === 0 ? first.baseUrl : second.url)),
    );
    // Tokens that came back while the burst ran (one per 3 s; normally none).
    const refilled = Math.floor(((Date.now() - started) / 60_000) * PER_MINUTE);
    const statuses = burst.map((answer) => answer.status);
    const admitted = statuses.filter((s) => s === 200).length;
    assert.ok(admitted >= PER_MINUTE && admitted <= PER_MINUTE + refilled, statuses.join(','));
    assert.equal(statuses.filter((s) => s === 429).length, PER_MINUTE + 10 - admitted);
  });

  test('buckets untouched for a minute (full again) are swept from the table; busy ones stay', async () => {
    const conn = first.db.orm.em.getConnection();
    await conn.execute(
      `insert into rate_limit_buckets (key, per_minute, tokens, admitted, updated_at)
       select 'api:ip:198.51.100.' || i, 20, 3, true, now() - interval '61 seconds' from generate_series(1, 50) i`,
    );
    const buckets = new PostgresBuckets(first.db.orm, undefined, { sweepEveryMs: 0 });
    await buckets.take('api:ip:203.0.113.1', 20);
    const keys = await waitFor(
      'the sweep',
      async () =>
        (await conn.execute<{ key: string }[]>('select key from rate_limit_buckets')).map((r) => r.key),
      (all) => !all.some((key) => key.startsWith('api:ip:198.51.100.')),
    );
    assert.ok(keys.includes('api:ip:203.0.113.1'));
    assert.ok(
      keys.some((key) => key.startsWith('api:key:')),
      `the tenant's key, busy a moment ago, keeps its bucket: ${keys.join()}`,
    );
  });

  test('other credentials and the public pages keep budgets of their own', async () => {
    const live = await fetch(`${second.url}/v1/dpp/inventory`, {
      headers: { 'x-service-env': 'live', authorization: `Bearer ${tenant.liveKey}` },
    });
    assert.equal(live.status, 200);
    const page = await fetch(`${first.baseUrl}/contexts/dpp/v1`);
    assert.equal(page.status, 200);
  });
});

/** The production entry point (api/main.ts) twice, as two replicas behind a load balancer; one is killed. */
describe('two API processes share the limit; it outlives a killed process', () => {
  let db: TestApi;
  let tenant: TestTenant;
  const processes: ApiProcess[] = [];

  beforeAll(async () => {
    db = await startTestApi();
    tenant = await db.createTenant();
    for (let i = 0; i < 2; i++)
      processes.push(
        await startApiProcess({ DATABASE_URL: db.db.url, RATE_LIMIT_PER_MINUTE: String(PER_MINUTE) }),
      );
  }, 120_000);
  afterAll(async () => {
    for (const api of processes) await api.stop();
    await db?.close();
  });

  const call = (url: string) =>
    fetch(`${url}/v1/dpp/inventory`, {
      headers: { 'x-service-env': 'test', authorization: `Bearer ${tenant.testKey}` },
    });

  test('calls spread over both processes spend one budget; the survivor of a kill -9 keeps refusing', async () => {
    const [first, second] = processes as [ApiProcess, ApiProcess];
    const statuses: number[] = [];
    for (let i = 0; i < PER_MINUTE; i++)
      statuses.push((await call(i % 2 === 0 ? first.url : second.url)).status);
    assert.deepEqual(statuses, Array(PER_MINUTE).fill(200));
    assert.equal((await call(first.url)).status, 429);
    assert.equal((await call(second.url)).status, 429);
    await first.kill();
    const afterKill = await call(second.url);
    assert.equal(afterKill.status, 429, 'the budget is in the database, not in the killed process');
    assert.equal(afterKill.headers.get('ratelimit-remaining'), '0');
  });
});
