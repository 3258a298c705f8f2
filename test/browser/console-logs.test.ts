import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { freePort } from '../../src/platform/runtime/ports.ts';
import type { TestTenant } from '../support/api.ts';
import { launchChromium } from '../support/browser.ts';
import { addConsoleUser, consoleChecks } from '../support/console-browser.ts';
import { addEndpoint } from '../support/console-webhooks.ts';
import { startTestStack, type TestStack } from '../support/stack.ts';
import { type Receiver, startReceiver } from '../webhooks/support.ts';

const OWNER = 'owner@logs.example';
const CHIP_KEY = '00112233445566778899AABBCCDDEEFF';

/**
 * Developers › Logs and the webhook log in headless Chromium on the whole stack: a failed API call appears in
 * the open log by itself and opens to its bodies (secrets redacted); the log pauses while the tab is hidden; a
 * test event's delivery appears in the open delivery log without a reload, with its payload and headers.
 */
describe('console: request log and webhook payloads in Chromium', () => {
  let stack: TestStack;
  let tenant: TestTenant;
  let browser: Browser;
  let origin: string;
  let receiver: Receiver;
  let page: Page;

  const call = (method: string, path: string, body?: unknown) =>
    stack.api.call(method, path, { key: tenant.testKey, ...(body === undefined ? {} : { body }) });

  beforeAll(async () => {
    const port = await freePort();
    stack = await startTestStack({ apiEnv: { PORT: String(port) } });
    origin = `http://localhost:${port}`;
    tenant = await stack.api.createTenant('Logs & Co');
    await addConsoleUser(stack.api, tenant.companyId, OWNER, 'owner');
    receiver = await startReceiver();
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await stack?.close();
    await receiver?.close();
  });

  const checks = consoleChecks(
    () => browser,
    () => origin,
    { shotPrefix: 'logs-', viewport: { width: 1280, height: 900 }, contextOptions: { timezoneId: 'UTC' } },
  );
  const { newContext, checkPage, openPage, signIn } = checks;

  test('a failed API call appears in the open log by itself and opens to its bodies, secrets redacted', async () => {
    [, page] = await newContext();
    await signIn(page, OWNER);
    await openPage(page, 'Logs', { exact: true });
    await page.getByText(/^Live: new requests appear by themselves/).waitFor();
    const log = page.getByRole('table', { name: 'API requests, newest first' });

    const failed = await call('PUT', '/v1/dpp/chip-keys', {
      sdmMetaReadKey: CHIP_KEY,
      sdmFileReadKey: 'not hex',
    });
    assert.equal(failed.status, 400);
    // No reload, no button: the open log polls.
    const row = log.getByRole('button', { name: 'PUT /v1/dpp/chip-keys 400 validation_failed' });
    await row.waitFor({ timeout: 15_000 });
    await row.click();
    const entry = page.getByRole('region', { name: /PUT/ });
    await entry.getByRole('heading', { level: 2, name: /400 PUT \/v1\/dpp\/chip-keys/ }).waitFor();
    const requestBody = (await entry.getByRole('region', { name: 'Request body' }).textContent()) ?? '';
    assert.match(requestBody, /"sdmMetaReadKey": "\[redacted\]"/);
    assert.ok(!requestBody.includes(CHIP_KEY), requestBody);
    const responseBody = (await entry.getByRole('region', { name: 'Response body' }).textContent()) ?? '';
    assert.match(responseBody, /"code": "validation_failed"/);
    assert.match(responseBody, new RegExp(`"requestId": "${failed.headers.get('x-request-id')}"`));
    const text = (await page.locator('main').textContent()) ?? '';
    assert.ok(!text.includes(tenant.testKey), 'the key itself is nowhere on the page');
    assert.match(text, /authorization\s*Bearer sk_test_\w{8}…\[redacted\]/);
    await checkPage(page, 'failed-call');
  });

  test('filters narrow the log; a hidden tab pauses it', async () => {
    assert.equal((await call('GET', '/v1/webhooks/endpoints')).status, 200);
    const log = page.getByRole('table', { name: 'API requests, newest first' });
    await log
      .getByRole('button', { name: 'GET /v1/webhooks/endpoints 200' })
      .first()
      .waitFor({ timeout: 15_000 });
    await page.getByLabel('Status').selectOption('failed');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await log
      .getByRole('button', { name: /^GET \/v1\/webhooks\/endpoints 200/ })
      .first()
      .waitFor({ state: 'detached' });
    // The filtered list may still be loading when the unfiltered rows are gone: wait for its row, then count.
    const failed = log.getByRole('button', { name: /PUT \/v1\/dpp\/chip-keys 400/ });
    await failed.first().waitFor({ timeout: 15_000 });
    assert.equal(await failed.count(), 1);

    await page.evaluate(() => {
      Object.defineProperty(document, 'visibilityState', { value: 'hidden', configurable: true });
      document.dispatchEvent(new Event('visibilitychange'));
    });
    await page.getByText('Paused while this tab is hidden.').waitFor();
    await page.evaluate(() => {
      Object.defineProperty(document, 'visibilityState', { value: 'visible', configurable: true });
      document.dispatchEvent(new Event('visibilitychange'));
    });
    await page.getByText(/^Live: new requests appear by themselves/).waitFor();
  });

  test('“Send test event”: the delivery appears in the open log by itself, with the payload and headers sent', async () => {
    await openPage(page, 'Webhooks', { exact: true });
    await addEndpoint(page, receiver.url, ['asset.minted']);
    await page.getByRole('button', { name: `Deliveries to ${receiver.url}` }).click();
    const deliveries = page.getByRole('region', { name: /Deliveries to/ });
    await deliveries.getByText('Live: new deliveries and attempts appear by themselves.').waitFor();
    await page.getByRole('button', { name: `Send test event to ${receiver.url}` }).click();
    await receiver.waitFor(1);
    const row = deliveries.getByRole('row', { name: /webhook\.test.*Delivered.*HTTP 200/ });
    await row.waitFor({ timeout: 15_000 });
    await row.getByRole('button', { name: /^Attempts of webhook\.test/ }).click();
    const payload = (await deliveries.getByRole('region', { name: /^Payload sent/ }).textContent()) ?? '';
    assert.equal(JSON.parse(payload).eventType, 'webhook.test');
    assert.deepEqual(
      JSON.parse(payload),
      JSON.parse(receiver.requests[0]!.body),
      'the bytes the receiver got',
    );
    const headers = deliveries.locator('details.sent-headers').first();
    const sent = (await headers.textContent()) ?? '';
    const received = receiver.requests[0]!.headers;
    for (const name of ['service-signature', 'webhook-id', 'webhook-timestamp', 'webhook-signature']) {
      assert.ok(
        sent.includes(name) && sent.includes(String(received[name])),
        `${name} shown as sent: ${sent}`,
      );
    }
    assert.ok(
      !((await page.locator('main').textContent()) ?? '').includes('whsec_'),
      'the endpoint’s secret is not shown',
    );
    await checkPage(page, 'webhook-payload');
  });

  test('no script error, no failed call but the session check before sign-in, nothing from elsewhere', () => {
    assert.deepEqual(checks.foreignRequests, []);
    assert.deepEqual(
      checks.failedResponses.filter((line) => !/^401 .*\/v1\/console\/session$/.test(line)),
      [],
    );
    assert.deepEqual(
      checks.errors.filter(
        (text) => !/^Failed to load resource: the server responded with a status of 401/.test(text),
      ),
      [],
    );
  });
});
