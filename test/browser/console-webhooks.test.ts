import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { freePort } from '../../src/platform/runtime/ports.ts';
import type { TestTenant } from '../support/api.ts';
import { launchChromium } from '../support/browser.ts';
import {
  addConsoleUser,
  consoleChecks,
  CONSOLE_PASSWORD as PASSWORD,
  PHONE,
  recordWithArgumentsButFailedLoads,
} from '../support/console-browser.ts';
import { addEndpoint, deliveriesTo, logShows } from '../support/console-webhooks.ts';
import { mintBody } from '../support/fixtures/mint.ts';
import { GTIN, TRAIL_JACKET } from '../support/fixtures/products.ts';
import { tapUrl } from '../support/fixtures/sun.ts';
import { type SmtpReceiver, startSmtpReceiver } from '../support/smtp-receiver.ts';
import { startTestStack, type TestStack } from '../support/stack.ts';
import { PUBLIC_WEBHOOK_URL, webhookSeeder } from '../support/webhook-seed.ts';
import { type Receiver, startReceiver, waitUntil } from '../webhooks/support.ts';

const OWNER = 'owner@hooks.example';
const DEVELOPER = 'developer@hooks.example';
const VIEWER = 'viewer@hooks.example';
/** The waits of the spec's retry schedule after attempt 1 (5 m, 15 m, 1 h, 4 h, 12 h): the clock skips them. */
const RETRY_WAITS = ['5 minutes', '15 minutes', '1 hour', '4 hours', '12 hours'] as const;

/**
 * Settings › Webhooks and Team in headless Chromium, on the whole stack (API, worker, outbox dispatcher,
 * time-skipping Temporal, anvil): an endpoint made in the console receives a mint's event and the log shows it
 * with its attempts; a test event; an endpoint whose receiver answers 500 dead-letters after the whole retry
 * schedule, and the console replays its dead letters (one, then a range) until they are delivered; an owner
 * removes a person, whose session ends; a password reset from the mail on the console's own page.
 */
describe('console: webhooks and team in Chromium', () => {
  let stack: TestStack;
  let tenant: TestTenant;
  let smtp: SmtpReceiver;
  let browser: Browser;
  let origin: string;
  let good: Receiver;
  let failing: Receiver;
  let ownerPage: Page;

  const call = (method: string, path: string, body?: unknown) =>
    stack.api.call(method, path, { key: tenant.testKey, ...(body === undefined ? {} : { body }) });

  const person = (email: string, role: string) => addConsoleUser(stack.api, tenant.companyId, email, role);

  beforeAll(async () => {
    smtp = await startSmtpReceiver();
    const port = await freePort();
    stack = await startTestStack({
      temporal: 'time-skipping',
      apiEnv: { PORT: String(port), SMTP_URL: smtp.url },
    });
    origin = `http://localhost:${port}`;
    tenant = await stack.api.createTenant('Hooks & Co');
    await person(OWNER, 'owner');
    await person(DEVELOPER, 'developer');
    await person(VIEWER, 'viewer');
    good = await startReceiver();
    failing = await startReceiver(() => ({ status: 500, body: 'receiver down' }));
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await stack?.close();
    await good?.close();
    await failing?.close();
    await smtp?.close();
  });

  const checks = consoleChecks(
    () => browser,
    () => origin,
    {
      viewport: { width: 1280, height: 900 },
      contextOptions: { timezoneId: 'UTC' },
      foreignFromEveryPage: true,
      // Any page's error but a failed load (a removed person's 401s), with its arguments to find its cause.
      recordConsoleError: recordWithArgumentsButFailedLoads,
    },
  );
  const { newContext, accessible, accessibleShot, fitsWidth, openPage, shoot, signIn } = checks;
  const openWebhooks = (page: Page) => openPage(page, 'Webhooks', { exact: true });

  test('an endpoint made in the console gets a mint’s event; the log shows it with its attempts', async () => {
    [, ownerPage] = await newContext();
    const page = ownerPage;
    await signIn(page, OWNER);
    await openWebhooks(page);
    // The form's event types come from GET /v1/webhooks/event-types (one source: src/webhooks/event-types.ts).
    const listed = (await call('GET', '/v1/webhooks/event-types')).body.eventTypes as string[];
    // The page loads them after it renders: wait for the last one before counting.
    await page.getByRole('checkbox', { name: listed.at(-1)!, exact: true }).waitFor();
    assert.equal(await page.locator('input[name="eventTypes"]').count(), listed.length);
    await addEndpoint(page, good.url, ['asset.minted']);

    const uid = '04C0501E000001';
    assert.equal((await call('POST', '/v1/dpp/enroll', { chipUid: uid })).status, 201);
    const minted = await call(
      'POST',
      '/v1/dpp/mint',
      mintBody({
        chipUid: uid,
        ...TRAIL_JACKET,
        image: 'https://cdn.hooks.example/jacket.png',
        nfcData: tapUrl(uid, 1, 'https://id.hooks.example/tap'),
        custom_dpp_data: {
          gtin: GTIN,
          manufacturer_name: 'Hooks & Co',
          conformity_url: 'https://hooks.example/conformity.pdf',
          svhc_exists: false,
        },
      }),
    );
    assert.ok([201, 202].includes(minted.status), minted.text);
    await good.waitFor(1, 60_000);
    assert.equal(JSON.parse(good.requests[0]!.body).eventType, 'asset.minted');

    await page.getByRole('button', { name: `Deliveries to ${good.url}` }).click();
    const row = await logShows(page, /asset\.minted.*Delivered.*1.*HTTP 200/);
    await row.getByRole('button', { name: /^Attempts of asset\.minted/ }).click();
    const attempts = page.getByRole('table', { name: 'Attempts of this delivery' });
    await attempts.getByRole('row', { name: /^1 .*HTTP 200/ }).waitFor();
    await accessibleShot(page, 'webhooks-log-attempts');
  });

  test('a test event goes to the endpoint and shows in its log', async () => {
    const page = ownerPage;
    const before = good.requests.length;
    await page.getByRole('button', { name: `Send test event to ${good.url}` }).click();
    await page.getByText(`A test event is on its way to ${good.url}`).waitFor();
    await good.waitFor(before + 1);
    assert.equal(JSON.parse(good.requests[before]!.body).eventType, 'webhook.test');
    await logShows(page, /webhook\.test.*Delivered.*HTTP 200/);
    await accessibleShot(page, 'webhooks-test-event');
  });

  test('edit an endpoint’s event types and rotate its secret with a chosen overlap', async () => {
    const page = ownerPage;
    await page.getByRole('button', { name: `Edit ${good.url}` }).click();
    const form = page.getByRole('region', { name: /^Edit/ });
    assert.equal(await form.getByRole('checkbox', { name: 'asset.minted' }).isChecked(), true);
    await form.getByRole('checkbox', { name: 'asset.sold' }).check();
    await form.getByLabel('Description (optional)').fill('Order system');
    await accessibleShot(page, 'webhooks-edit');
    await form.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText(`${good.url} saved.`).waitFor();
    const endpoint = (await call('GET', '/v1/webhooks/endpoints')).body.endpoints.find(
      (e: { url: string }) => e.url === good.url,
    );
    assert.deepEqual(
      [endpoint.eventTypes, endpoint.description],
      [['asset.minted', 'asset.sold'], 'Order system'],
    );

    await page.getByRole('button', { name: `Rotate secret of ${good.url}` }).click();
    await page.getByLabel('The previous secret keeps signing for').selectOption({ label: '1 hour' });
    await accessibleShot(page, 'webhooks-rotate-overlap');
    await page.getByRole('button', { name: 'Rotate now' }).click();
    await page.getByLabel('New signing secret').waitFor();
    const rotated = (await call('GET', `/v1/webhooks/endpoints/${endpoint.id}`)).body.endpoint;
    const overlap = Date.parse(rotated.secretRotation.previousSecretExpiresAt) - Date.now();
    assert.ok(overlap > 55 * 60_000 && overlap <= 60 * 60_000, `an hour's overlap (${overlap} ms)`);
    await page.getByRole('button', { name: 'I have stored it' }).click();
  });

  test('a receiver answering 500 dead-letters; the console replays one, then a range, and they are delivered', async () => {
    const page = ownerPage;
    await addEndpoint(page, failing.url, []);
    for (const uid of ['04C0501E000002', '04C0501E000003']) {
      assert.equal((await call('POST', '/v1/dpp/enroll', { chipUid: uid })).status, 201);
    }
    const atAttempt = (n: number) =>
      waitUntil(
        async () => {
          const rows = await deliveriesTo(stack.api, failing.url);
          return rows.length === 2 && rows.every((r) => r.attempt_count >= n);
        },
        30_000,
        `both deliveries at attempt ${n}`,
      );
    await atAttempt(1);
    // While retries are pending, the log says when the next one comes.
    await page.getByRole('button', { name: `Deliveries to ${failing.url}` }).click();
    await logShows(page, /asset\.initialized.*Pending.*1.*HTTP 500/);
    for (const [index, wait] of RETRY_WAITS.entries()) {
      await stack.temporal.sleep(wait);
      await atAttempt(index + 2);
    }
    await waitUntil(
      async () => (await deliveriesTo(stack.api, failing.url)).every((r) => r.status === 'dead'),
      30_000,
      'both dead letters',
    );
    assert.equal(failing.requests.length, 12, 'six attempts each');

    await page.reload();
    const queue = page.getByRole('region', { name: 'Dead-letter queue' });
    const deadLetter = queue.getByRole('row', { name: /asset\.initialized.*Dead letter.*6.*HTTP 500/ });
    await deadLetter.first().waitFor();
    assert.equal(await queue.getByRole('row', { name: /Dead letter/ }).count(), 2);
    const attemptsOf = queue.getByRole('button', { name: /^Attempts of asset\.initialized/ });
    await attemptsOf.first().click();
    await queue.getByRole('row', { name: /^6 .*HTTP 500.*receiver down/ }).waitFor();
    await accessibleShot(page, 'webhooks-dead-letters');

    // The receiver is back: replay the first dead letter from its row.
    failing.reply = () => ({ status: 200 });
    const replay = queue.getByRole('button', { name: /^Replay asset\.initialized/ });
    await replay.first().click();
    await queue.getByText(/^Replaying asset\.initialized/).waitFor();
    await waitUntil(
      async () => (await deliveriesTo(stack.api, failing.url)).some((r) => r.status === 'succeeded'),
      30_000,
      'the replayed delivery delivered',
    );
    const [first] = (await deliveriesTo(stack.api, failing.url)).filter((r) => r.status === 'succeeded');
    assert.equal(first!.attempt_count, 7, 'attempts numbered on after the six');

    // The other by range: every dead letter of the last hour, of this endpoint.
    const local = (ms: number) => new Date(ms).toISOString().slice(0, 19);
    await queue.getByLabel('Dead-lettered from').fill(local(Date.now() - 3_600_000));
    await queue.getByLabel('until (not included)').fill(local(Date.now() + 3_600_000));
    await queue.getByLabel('Endpoint').selectOption({ label: failing.url });
    await accessibleShot(page, 'webhooks-replay-range');
    await queue.getByRole('button', { name: 'Replay range' }).click();
    await queue.getByText('1 dead letter replayed.').waitFor();
    await waitUntil(
      async () => (await deliveriesTo(stack.api, failing.url)).every((r) => r.status === 'succeeded'),
      30_000,
      'both delivered',
    );
    await queue.getByRole('button', { name: 'Refresh the queue' }).click();
    await queue.getByText('No dead letters in test.').waitFor();
    await page.getByRole('button', { name: `Deliveries to ${failing.url}` }).click();
    await logShows(page, /asset\.initialized.*Delivered.*7.*HTTP 200/);
    await shoot(page, 'webhooks-replayed');
  });

  test('a long log pages: the newest 25, then the older ones', async () => {
    const seed = webhookSeeder(stack.api);
    // Subscribed to an event nothing here emits: the seeded rows are all it will ever have.
    const endpointId = await seed.createEndpoint(tenant, { eventTypes: ['asset.recycled'] });
    for (let i = 0; i < 27; i++) {
      await seed.seedDelivery(tenant, endpointId, {
        status: 'stopped',
        attempts: 1,
        createdAt: new Date(Date.now() - (i + 1) * 60_000).toISOString(),
      });
    }
    const page = ownerPage;
    await page.reload();
    await page.getByRole('button', { name: `Deliveries to ${PUBLIC_WEBHOOK_URL}` }).click();
    const log = page.getByRole('region', { name: /Deliveries to/ });
    const rows = log.getByRole('button', { name: /^Attempts of/ });
    const stopped = log.getByRole('row', { name: /Stopped/ }).first();
    await stopped.waitFor();
    assert.equal(await rows.count(), 25);
    await log.getByRole('button', { name: 'Older deliveries' }).click();
    await log.getByRole('button', { name: 'Older deliveries' }).waitFor({ state: 'detached' });
    assert.equal(await rows.count(), 27, 'the older two appended; no further page');
    await log.getByRole('button', { name: 'Close the log' }).click();

    // The endpoint moves to another URL: its deliveries stay with it.
    await page.getByRole('button', { name: `Edit ${PUBLIC_WEBHOOK_URL}` }).click();
    await page.locator('#edit-url').fill(`${PUBLIC_WEBHOOK_URL}/v2`);
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText(`${PUBLIC_WEBHOOK_URL}/v2 saved.`).waitFor();
    await page.getByRole('button', { name: `Deliveries to ${PUBLIC_WEBHOOK_URL}/v2` }).click();
    await stopped.waitFor();
    assert.equal(
      (await call('GET', `/v1/webhooks/endpoints/${endpointId}`)).body.endpoint.url,
      `${PUBLIC_WEBHOOK_URL}/v2`,
    );
    await log.getByRole('button', { name: 'Close the log' }).click();
  });

  test('a viewer sees the log and the queue but no replay, edit or test button', async () => {
    const [context, page] = await newContext();
    await signIn(page, VIEWER);
    await openWebhooks(page);
    await page.getByRole('button', { name: `Deliveries to ${failing.url}` }).click();
    await logShows(page, /asset\.initialized.*Delivered/);
    for (const name of [/^Replay/, /^Edit/, /^Send test event/, /^Rotate/, 'Replay range']) {
      assert.equal(await page.getByRole('button', { name }).count(), 0, `no ${name} button`);
    }
    await accessible(page, 'webhooks-viewer-log');
    await context.close();
  });

  test('at a phone’s width the webhooks and team pages fit and pass the accessibility check', async () => {
    const [context, page] = await newContext(PHONE);
    await signIn(page, OWNER);
    await openWebhooks(page);
    await page.getByRole('button', { name: `Deliveries to ${good.url}` }).click();
    const row = await logShows(page, /asset\.minted.*Delivered/);
    await row.getByRole('button', { name: /^Attempts of/ }).click();
    await page.getByRole('region', { name: 'Dead-letter queue' }).waitFor();
    await fitsWidth(page, 'webhooks (phone)');
    await accessible(page, 'webhooks (phone)');
    await shoot(page, 'webhooks-log-phone');
    await page.getByRole('button', { name: 'Menu' }).click();
    await page.getByRole('link', { name: 'Team' }).click();
    await page.getByRole('button', { name: `Remove ${VIEWER}` }).waitFor();
    await fitsWidth(page, 'team (phone)');
    await accessible(page, 'team (phone)');
    await shoot(page, 'team-remove-phone');
    await context.close();
  });

  test('an owner removes a person: their open console ends at once', async () => {
    const [, developerPage] = await newContext();
    await signIn(developerPage, DEVELOPER);
    const page = ownerPage;
    await openPage(page, 'Team');
    // No remove button for oneself (the company keeps its owner).
    assert.equal(await page.getByRole('button', { name: `Remove ${OWNER}` }).count(), 0);
    await page.getByRole('button', { name: `Remove ${DEVELOPER}` }).click();
    await accessibleShot(page, 'team-remove-confirm');
    await page.getByRole('button', { name: `Confirm removing ${DEVELOPER}` }).click();
    await page.getByText(`${DEVELOPER} was removed from Hooks & Co; their sessions ended.`).waitFor();
    assert.equal(await page.getByRole('row', { name: new RegExp(DEVELOPER) }).count(), 0);
    await shoot(page, 'team-removed');

    await developerPage.reload();
    await developerPage.getByRole('heading', { level: 1, name: 'Sign in to the console' }).waitFor();
    await developerPage.getByRole('textbox', { name: 'E-mail', exact: true }).fill(DEVELOPER);
    await developerPage.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await developerPage.getByRole('button', { name: 'Sign in', exact: true }).click();
    await developerPage.getByRole('alert').waitFor();
    assert.equal(new URL(developerPage.url()).pathname, '/console/sign-in');
  });

  test('password reset from the mail on the console’s page; an invitation’s link lands there too', async () => {
    const [, page] = await newContext();
    await page.goto(`${origin}/console/sign-in`);
    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    await page.getByRole('heading', { level: 1, name: 'Reset your password' }).waitFor();
    assert.equal(new URL(page.url()).pathname, '/console/reset-password');
    await accessible(page, 'team-password-request');
    await page.getByRole('textbox', { name: 'E-mail', exact: true }).fill(VIEWER);
    await page.getByRole('button', { name: 'Send me a link' }).click();
    await page.getByText('If this address has an account, we sent it a link').waitFor();
    await shoot(page, 'team-password-requested');
    const [phone, phonePage] = await newContext(PHONE);
    await phonePage.goto(`${origin}/console/reset-password`);
    await phonePage.getByRole('heading', { level: 1, name: 'Reset your password' }).waitFor();
    await fitsWidth(phonePage, 'reset (phone)');
    await accessible(phonePage, 'reset (phone)');
    await shoot(phonePage, 'team-password-phone');
    await phone.close();

    const link = new URL(await smtp.tokenLink(VIEWER, '/reset-password'));
    assert.equal(link.pathname, '/console/reset-password');
    await page.goto(link.href);
    await page.getByRole('heading', { level: 1, name: 'Set your password' }).waitFor();
    await accessibleShot(page, 'team-password-set');
    const fresh = 'a new passphrase from the mail';
    await page.getByLabel(/New password/).fill(fresh);
    await page.getByRole('button', { name: 'Set password' }).click();
    await page.getByText('Your password is set').waitFor();
    await shoot(page, 'team-password-done');
    await page.getByRole('link', { name: 'Sign in with it' }).click();
    await signIn(page, VIEWER, fresh);
    // The link works once: opened again, the page says so and offers a new one.
    await page.goto(link.href);
    await page.getByLabel(/New password/).fill('yet another long passphrase');
    await page.getByRole('button', { name: 'Set password' }).click();
    await page.getByRole('alert').waitFor();
    await page.getByRole('link', { name: 'Ask for a new link' }).waitFor();
    await shoot(page, 'team-password-used');

    // An invitation's mail leads to the same page.
    await ownerPage.getByRole('textbox', { name: 'E-mail', exact: true }).fill('new.hire@hooks.example');
    await ownerPage.getByRole('button', { name: 'Send invitation' }).click();
    await ownerPage.getByText('Invitation sent to new.hire@hooks.example.').waitFor();
    const invitation = new URL(await smtp.tokenLink('new.hire@hooks.example', '/reset-password'));
    assert.equal(invitation.pathname, '/console/reset-password');
    const [, invited] = await newContext();
    await invited.goto(invitation.href);
    await invited.getByLabel(/New password/).fill(PASSWORD);
    await invited.getByRole('button', { name: 'Set password' }).click();
    await invited.getByText('Your password is set').waitFor();
    await signIn(invited, 'new.hire@hooks.example');
  });

  test('no CSP violation, no script error and nothing loaded from elsewhere', () => {
    assert.deepEqual(checks.errors, []);
    assert.deepEqual(checks.foreignRequests, []);
  });
});
