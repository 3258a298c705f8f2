import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, test } from 'vitest';
import type { RequestLogEntry } from '../../src/accounts/request-log/entry.ts';
import { insertEntries } from '../../src/accounts/request-log/store.ts';
import { NO_BODY } from '../../src/accounts/request-log/stored-body.ts';
import type { TestTenant } from '../support/api.ts';
import { waitUntil } from '../support/chain-load.ts';
import type { TestStack } from '../support/stack.ts';
import { startStackWithWorkerProcess, type WorkerProcess } from '../support/worker-process.ts';

const CAP = 10;
const DAY = 24 * 60 * 60 * 1000;

/**
 * The request log stays bounded by the worker process (worker/main.ts, configured by environment only): its
 * periodic purge deletes entries past REQUEST_LOG_RETENTION_DAYS and trims every company's log to
 * REQUEST_LOG_MAX_ROWS, whatever the API processes left (here: rows written straight to the table).
 */
describe('the request log purge runs in the worker', () => {
  let stack: TestStack;
  let a: TestTenant;
  let b: TestTenant;
  let worker: WorkerProcess | undefined;

  beforeAll(async () => {
    ({
      stack,
      tenant: a,
      worker,
    } = await startStackWithWorkerProcess({
      REQUEST_LOG_PURGE_EVERY_SECONDS: '1',
      REQUEST_LOG_MAX_ROWS: String(CAP),
      REQUEST_LOG_RETENTION_DAYS: '30',
    }));
    b = await stack.api.createTenant('Beta');
  });
  afterAll(async () => {
    await worker?.stop();
    await stack?.close();
  });

  const entries = (tenant: TestTenant, count: number, ageMs: number, path: string): RequestLogEntry[] =>
    Array.from({ length: count }, (_, i) => ({
      companyId: tenant.companyId,
      environment: 'test',
      createdAt: new Date(Date.now() - ageMs - (count - i)),
      method: 'GET',
      path,
      query: { n: String(i) },
      status: 200,
      durationMs: 1,
      requestId: `req-${path}-${i}`,
      apiKeyId: null,
      userId: null,
      oauthClientId: null,
      clientAddress: null,
      userAgent: null,
      requestHeaders: {},
      requestBody: NO_BODY,
      responseBody: NO_BODY,
      errorCode: null,
    }));
  const rows = async (tenant: TestTenant) =>
    stack.api.db.orm.em
      .fork()
      .execute<{ path: string; n: string }[]>(
        `select path, query->>'n' as n from request_logs where company_id = ? order by created_at`,
        [tenant.companyId],
      );

  test('old entries go, every company’s log is trimmed to its cap, again as more arrive', async () => {
    const em = stack.api.db.orm.em.fork();
    await insertEntries(em, [
      ...entries(a, 5, 40 * DAY, '/old'),
      ...entries(a, 25, 0, '/recent'),
      ...entries(b, 3, 31 * DAY, '/old'),
      ...entries(b, 4, 29 * DAY, '/kept'),
    ]);
    await waitUntil(async () => (await rows(a)).length === CAP, 30_000, 'A trimmed to its cap');
    await waitUntil(async () => (await rows(b)).length === 4, 30_000, 'B’s old entries purged');
    assert.deepEqual(
      (await rows(a)).map((row) => `${row.path}:${row.n}`),
      Array.from({ length: CAP }, (_, i) => `/recent:${15 + i}`),
      'A keeps its newest entries',
    );
    assert.ok(
      (await rows(b)).every((row) => row.path === '/kept'),
      'B keeps its entries within 30 days',
    );

    await insertEntries(em, entries(a, 30, 0, '/later'));
    await waitUntil(async () => (await rows(a)).length === CAP, 30_000, 'A trimmed again');
    assert.ok((await rows(a)).every((row) => row.path === '/later'));

    const stopped = await worker!.stop();
    worker = undefined;
    assert.ok(stopped.logs.some((line) => line.msg === 'stopped request log purge'));
    assert.ok(stopped.logs.some((line) => line.msg === 'purged request log entries'));
  });
});
