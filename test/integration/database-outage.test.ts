import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { createApp } from '../../api/app.ts';
import { listen, type RunningHttpServer } from '../../api/server.ts';
import { createCompanyWithKey } from '../../src/accounts/companies/companies.ts';
import { loadConfig } from '../../src/platform/config/config.ts';
import { type EmbeddedDatabase, startEmbeddedPostgres } from '../../src/platform/db/embedded-postgres.ts';
import { migrate, type Orm, openOrm } from '../../src/platform/db/orm.ts';
import { createLogger } from '../../src/platform/logging/logger.ts';
import { freePort } from '../../src/platform/runtime/ports.ts';

// A PostgreSQL of its own, so stopping it disturbs no other test file.
describe('the database stops and starts again under the API', () => {
  let dataDir: string;
  let port: number;
  let database: EmbeddedDatabase;
  let orm: Orm;
  let http: RunningHttpServer;
  let key: string;
  const call = (path: string, body?: unknown) =>
    fetch(`${http.url}${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: {
        authorization: `Bearer ${key}`,
        'x-service-env': 'test',
        'content-type': 'application/json',
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'dpp-outage-pg-'));
    port = await freePort();
    database = await startEmbeddedPostgres({ dataDir, port, database: 'postgres' });
    orm = await openOrm(database.url, 4);
    await migrate(orm);
    key = (await createCompanyWithKey(orm.em.fork(), { name: 'Acme', environment: 'test' })).apiKey.key;
    const config = loadConfig({
      LOG_LEVEL: 'silent',
      DATABASE_URL: database.url,
      RATE_LIMIT_PER_MINUTE: '0',
    });
    http = await listen(createApp({ config, orm, logger: createLogger('silent') }), '127.0.0.1', 0, {
      bodyReadTimeoutMs: config.limits.bodyReadTimeoutMs,
    });
  });
  afterAll(async () => {
    // Bounded: once, in CI, closing after the restart waited out the 300 s hook timeout (the cause is not known yet).
    const bounded = (step: Promise<unknown> | undefined) =>
      Promise.race([step?.catch(() => {}), new Promise((resolve) => setTimeout(resolve, 10_000).unref())]);
    await bounded(http?.close(0));
    await bounded(orm?.close(true));
    await database?.stop().catch(() => {});
    await rm(dataDir, { recursive: true, force: true });
  });

  test('callers get 503 problems with Retry-After in bounded time, never 500; acknowledged writes survive', async () => {
    const acknowledged: string[] = [];
    for (const uid of ['04AA000000F001', '04AA000000F002']) {
      const answer = await call('/v1/dpp/enroll', { chipUid: uid });
      assert.equal(answer.status, 201);
      acknowledged.push(uid);
    }

    await database.stop();
    for (const request of [
      () => call('/v1/dpp/inventory'),
      () => call('/v1/dpp/enroll', { chipUid: '04AA000000F003' }),
      () => call('/v1/erp/provision', { erp_metadata: { material_number: 'M', order_id: 'O' } }),
    ]) {
      const started = Date.now();
      const answer = await request();
      assert.equal(answer.status, 503, await answer.clone().text());
      assert.equal(answer.headers.get('content-type'), 'application/problem+json');
      assert.equal(answer.headers.get('retry-after'), '5');
      assert.equal(((await answer.json()) as { code: string }).code, 'database_unavailable');
      assert.ok(Date.now() - started < 15_000, 'answered within the pool’s connection timeout');
    }
    const ready = await fetch(`${http.url}/readyz`);
    assert.equal(ready.status, 503);

    database = await startEmbeddedPostgres({ dataDir, port, database: 'postgres' });
    let inventory: Response | undefined;
    for (let i = 0; i < 50; i++) {
      inventory = await call('/v1/dpp/inventory');
      if (inventory.status === 200) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    assert.equal(inventory?.status, 200, 'the API recovers by itself');
    const listed = ((await inventory!.json()) as { inventory: { chipUid: string }[] }).inventory.map(
      (i) => i.chipUid,
    );
    for (const uid of acknowledged) assert.ok(listed.includes(uid), `${uid} was acknowledged and is there`);
  });
});
