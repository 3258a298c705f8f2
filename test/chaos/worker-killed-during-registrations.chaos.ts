import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { type RegistryEmulator, startRegistryEmulator } from '../../scripts/dev/registry-emulator.ts';
import type { TestTenant } from '../support/api.ts';
import { BATTERY_V1 } from '../support/fixtures/battery.ts';
import { startTestStack, type TestStack } from '../support/stack.ts';
import { startWorkerProcess, type WorkerProcess } from '../support/worker-process.ts';

const PUBLICATIONS = 1000;
const IN_FLIGHT = 16;

/** GTIN-14 `0950601{n:06}` with its GS1 check digit. */
function gtin(n: number): string {
  const body = `0950601${String(n).padStart(6, '0')}`;
  let sum = 0;
  for (let i = 0; i < 13; i++) sum += Number(body[12 - i]) * (i % 2 === 0 ? 3 : 1);
  return body + String((10 - (sum % 10)) % 10);
}

/**
 * Issue 35's "registration that cannot be lost": 1,000 publications (model passports) while the production worker
 * process (worker/main.ts: the registry dispatcher and the registry workflows' worker) is killed -9 at random
 * moments and the registry answers 503 for a while. Afterwards every passport is registered exactly once at the
 * registry, with every version's hash, in order, once each.
 */
describe('the worker killed -9 during 1,000 publications, the registry down for a while', () => {
  let stack: TestStack;
  let tenant: TestTenant;
  let registry: RegistryEmulator;
  let worker: WorkerProcess | undefined;
  const call = (method: string, path: string, body?: unknown) =>
    stack.api.call(method, path, { key: tenant.testKey, ...(body === undefined ? {} : { body }) });
  const startWorker = () =>
    startWorkerProcess(stack, {
      env: {
        REGISTRY_API_URL_TEST: registry.url,
        REGISTRY_API_TOKEN_TEST: registry.token!,
        BACKUP_COPY_URL_TEMPLATE: 'https://backup.example.test{path}',
      },
    });

  beforeAll(async () => {
    stack = await startTestStack({
      startWorker: false,
      dispatcher: false,
      apiClient: 'native',
      apiEnv: { RATE_LIMIT_PER_MINUTE: '0' },
    });
    registry = await startRegistryEmulator({ token: 'chaos-registry-token' });
    tenant = await stack.api.createTenant('Voltaic Cells');
    const settings = await call('PATCH', '/v1/company/settings', { economicOperatorId: 'DE1234567890123' });
    assert.equal(settings.status, 200, settings.text);
  });
  afterAll(async () => {
    await worker?.stop();
    await stack?.close();
    await registry?.stop();
  });

  test('1,000 registrations, each exactly once, each with its versions’ hashes', async () => {
    worker = await startWorker();
    let next = 0;
    const publish = async () => {
      while (next < PUBLICATIONS) {
        const n = next++;
        const created = await call('POST', '/v1/dpps', {
          granularity: 'Model',
          gtin: gtin(n),
          [BATTERY_V1]: { generalProductInformation: { manufacturerName: `Chaos ${n}` } },
        });
        assert.equal(created.status, 201, created.text);
      }
    };
    const publishing = Promise.all(Array.from({ length: IN_FLIGHT }, publish));
    // Kill the worker three times at random moments while publications and registrations are under way, and
    // make the registry unavailable for a while in between.
    for (let kill = 0; kill < 3; kill++) {
      await new Promise((resolve) => setTimeout(resolve, 1000 + Math.random() * 3000));
      process.kill(worker.pid, 'SIGKILL');
      if (kill === 1) registry.switches.unavailable = 200;
      await new Promise((resolve) => setTimeout(resolve, 500 + Math.random() * 1000));
      worker = await startWorker();
    }
    await publishing;

    const db = stack.api.db.orm.em.fork();
    for (let i = 0; ; i++) {
      const [left] = await db.execute<{ n: number }[]>(
        `select count(*)::int as n from registry_intents where state = 'pending'`,
      );
      if (left!.n === 0) break;
      assert.ok(i < 1800, `${left!.n} intents still pending`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }

    const state = registry.state();
    assert.equal(state.registrations.length, PUBLICATIONS, 'one registration per publication');
    const upis = new Set(state.registrations.map((entry) => entry.uniqueProductIdentifier));
    assert.equal(upis.size, PUBLICATIONS, 'none registered twice');
    const versions = await db.execute<{ gtin: string; hashes: string[] }[]>(
      `select l.gtin, array_agg(v.sha256 order by v.number) as hashes
       from dpp_levels l join dpp_level_versions v on v.level_id = l.id group by l.gtin`,
    );
    const byGtin = new Map(versions.map((row) => [row.gtin, row.hashes]));
    for (const entry of state.registrations) {
      const key = entry.uniqueProductIdentifier.split('/01/')[1]!;
      assert.deepEqual(
        entry.versions.map((version) => version.sha256),
        byGtin.get(key),
        `${entry.uniqueProductIdentifier}: every version once, in order`,
      );
    }
    const [registered] = await db.execute<{ n: number }[]>(
      `select count(*)::int as n from registry_registrations where state = 'registered' and registry_id is not null`,
    );
    assert.equal(registered!.n, PUBLICATIONS);
    console.log(
      `registry chaos: ${state.accepted} accepted, ${state.replayed} answered from the idempotency store, ${state.refused} refused`,
    );
  });
});
