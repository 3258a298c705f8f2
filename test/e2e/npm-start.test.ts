import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { freePort } from '../../src/platform/runtime/ports.ts';
import { ARTIFACTS_DIR, launchChromium } from '../support/browser.ts';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';
import { mintBody } from '../support/fixtures/mint.ts';
import { CONFORMITY_URL, GTIN } from '../support/fixtures/products.ts';
import { type ServiceProcess, startServiceProcess } from '../support/service-process.ts';

const CHIP = '04C0FFEE000001';
const WORKFLOW_ID = `mint:test:${CHIP}`;

describe('npm start runs the official Temporal dev server with its Web UI, and keeps workflows across restarts', () => {
  let db: TestDatabase;
  let env: Record<string, string>;
  let service: ServiceProcess | undefined;
  let data: string;

  beforeAll(async () => {
    db = await createTestDatabase();
    data = await mkdtemp(join(tmpdir(), 'dpp-npm-start-'));
    env = {
      DATABASE_URL: db.url,
      PORT: String(await freePort()),
      TEMPORAL_DEV_PORT: String(await freePort()),
      TEMPORAL_DEV_DB_FILE: join(data, 'temporal', 'dev.db'),
      CHAIN_DATA_DIR: join(data, 'chain'),
      IPFS_STORE_DIR: join(data, 'ipfs'),
      DEV_MAIL_DIR: join(data, 'mail'),
      LOG_LEVEL: 'warn',
      ...(process.env.TEMPORAL_CLI_PATH ? { TEMPORAL_CLI_PATH: process.env.TEMPORAL_CLI_PATH } : {}),
    };
  });
  afterAll(async () => {
    await service?.stop('SIGTERM');
    await db.drop();
    await rm(data, { recursive: true, force: true });
  });

  /** The Web UI's own HTTP API, as the UI's pages call it. */
  async function listedByUi(uiUrl: string): Promise<{ workflowId: string; status: string }[]> {
    const query = encodeURIComponent(`WorkflowId = "${WORKFLOW_ID}"`);
    const response = await fetch(`${uiUrl}/api/v1/namespaces/default/workflows?query=${query}`);
    assert.equal(response.status, 200);
    const body = (await response.json()) as {
      executions?: { execution: { workflowId: string }; status: string }[];
    };
    return (body.executions ?? []).map((e) => ({ workflowId: e.execution.workflowId, status: e.status }));
  }

  test('a mint made through the API is listed in the UI, before and after a restart, with its history', async () => {
    service = await startServiceProcess(env);
    const uiUrl = service.bannerValue('Temporal UI');
    const key = /sk_test_[A-Za-z0-9_-]+/.exec(service.output())?.[0];
    assert.ok(key, 'the banner shows the demo test key');
    assert.match(uiUrl, /^http:\/\/localhost:\d+$/);
    assert.equal((await fetch(uiUrl)).status, 200, 'the Web UI answers');
    // The web console (issue 22): npm start built it and serves it where the banner says.
    const consoleUrl = service.bannerValue('Console');
    assert.equal(consoleUrl, `http://localhost:${env.PORT}/console`);
    const consolePage = await fetch(`http://127.0.0.1:${env.PORT}/console`);
    assert.equal(consolePage.status, 200);
    assert.match(
      await consolePage.text(),
      /<script type="module" crossorigin src="\/console\/assets\/index-/,
    );

    const api = `http://127.0.0.1:${env.PORT}`;
    const call = (method: string, path: string, body?: unknown) =>
      fetch(`${api}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${key}`,
          'x-service-env': 'test',
          'content-type': 'application/json',
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    assert.equal((await call('POST', '/v1/dpp/enroll', { chipUid: CHIP })).status, 201);

    // Mail: a registration's confirmation link lands in the inbox directory the banner names.
    const inbox = /Mail .* in (\S+)\/\*\.txt/.exec(service.output())?.[1];
    assert.equal(inbox, join(env.DEV_MAIL_DIR!), 'the banner says where mail goes');
    const registered = await call('POST', '/v1/auth/register', {
      email: 'newcomer@example.com',
      password: 'a long enough password',
      companyName: 'Newcomer',
    });
    assert.equal(registered.status, 201);
    // Readable as sent: the .txt beside each .eml holds the decoded text, its link whole on one line.
    const text = (await readdir(inbox!)).find((name) => name.endsWith('.txt'));
    assert.ok(text, 'a .txt copy of the message');
    const body = await readFile(join(inbox!, text), 'utf8');
    const link = /^(http\S+\/v1\/auth\/confirm\?token=\S+)$/m.exec(body)?.[1];
    assert.ok(link, body);
    assert.equal((await fetch(link, { redirect: 'manual' })).status < 400, true, 'the copied link works');
    const minted = await call(
      'POST',
      '/v1/dpp/mint',
      mintBody({
        chipUid: CHIP,
        name: 'Restart jacket',
        custom_dpp_data: { gtin: GTIN, conformity_url: CONFORMITY_URL },
      }),
    );
    assert.ok([201, 202].includes(minted.status), `mint answered ${minted.status}`);
    for (let i = 0; ; i++) {
      const status = (await (await call('GET', `/v1/dpp/mint/${CHIP}`)).json()) as { status: string };
      if (status.status === 'COMPLETED') break;
      assert.ok(i < 100, `mint still ${status.status}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    assert.deepEqual(await listedByUi(uiUrl), [
      { workflowId: WORKFLOW_ID, status: 'WORKFLOW_EXECUTION_STATUS_COMPLETED' },
    ]);

    // The EU registry emulator (docs/registry.md): the passport's registration reaches it; the demo company has no
    // EORI yet, so the registry judges the payload and refuses it.
    const registry = /EU DPP registry emulator (\S+)/.exec(service.output())?.[1];
    assert.ok(registry, 'the banner names the registry emulator');
    for (let i = 0; ; i++) {
      const state = (await (await fetch(`${registry}/_admin/state`)).json()) as { refused: number };
      if (state.refused > 0) break;
      assert.ok(i < 100, 'no registration reached the registry emulator');
      await new Promise((resolve) => setTimeout(resolve, 200));
    }

    // Payments work under npm start: its stripe-mock accepts the key npm start configures.
    const checkout = await call('POST', '/v1/billing/checkout', { plan: 'pro' });
    assert.equal(checkout.status, 201, await checkout.text());

    // Ctrl-C as a terminal sends it: SIGINT to the whole process group, once.
    const stopped = await service.stop('SIGINT');
    assert.deepEqual(
      { exit: stopped.exit, leftBehind: stopped.leftBehind },
      { exit: 'signal SIGINT', leftBehind: false },
      service.output().slice(-3000),
    );
    assert.doesNotMatch(service.output(), /did not stop|failed to stop|did not finish/);
    assert.ok(stopped.ms < 15_000, `Ctrl-C took ${stopped.ms} ms`);
    service = await startServiceProcess(env);
    const uiAfter = service.bannerValue('Temporal UI');
    assert.deepEqual(await listedByUi(uiAfter), [
      { workflowId: WORKFLOW_ID, status: 'WORKFLOW_EXECUTION_STATUS_COMPLETED' },
    ]);
    const history = (await (
      await fetch(
        `${uiAfter}/api/v1/namespaces/default/workflows/${encodeURIComponent(WORKFLOW_ID)}/history?maximumPageSize=100`,
      )
    ).json()) as { history: { events: { eventType: string }[] } };
    const types = history.history.events.map((e) => e.eventType);
    assert.equal(types[0], 'EVENT_TYPE_WORKFLOW_EXECUTION_STARTED');
    assert.equal(types.at(-1), 'EVENT_TYPE_WORKFLOW_EXECUTION_COMPLETED');

    // An operator finds it in the UI by its id, and by our search attributes.
    const browser = await launchChromium();
    try {
      const page = await browser.newPage();
      const query = encodeURIComponent(`DppChipUid = "${CHIP}"`);
      await page.goto(`${uiAfter}/namespaces/default/workflows?query=${query}`);
      const link = page.getByRole('link', { name: WORKFLOW_ID });
      await link.first().waitFor({ timeout: 30_000 });
      await page.screenshot({
        path: new URL('temporal-ui-mint.png', ARTIFACTS_DIR).pathname,
        fullPage: true,
      });
      await link.first().click();
      await page.getByText('Completed').first().waitFor({ timeout: 30_000 });
    } finally {
      await browser.close();
    }
    const terminated = await service.stop('SIGTERM');
    service = undefined;
    assert.deepEqual(
      { exit: terminated.exit, leftBehind: terminated.leftBehind },
      { exit: 'signal SIGTERM', leftBehind: false },
    );
  });
});
