import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { freePort } from '../../src/platform/runtime/ports.ts';
import type { TestTenant } from '../support/api.ts';
import { launchChromium } from '../support/browser.ts';
import { addConsoleUser, consoleChecks } from '../support/console-browser.ts';
import { enrollAndMint } from '../support/fixtures/mint.ts';
import { startTestStack, type TestStack } from '../support/stack.ts';

const BRAND_OWNER = 'owner@brand-transfers.example';
const RECEIVER_OWNER = 'owner@second-life.example';
const RECEIVER_VIEWER = 'viewer@second-life.example';

/**
 * Settings › Transfers (issue 36): a brand offers a passport to another operator from the console, the other
 * company accepts it from its console and the passport is its own from then on; a declined offer; a viewer sees
 * offers without the buttons and the API refuses the viewer. Screenshots test-artifacts/console/transfers-*.png.
 */
describe('passport transfers in the console', () => {
  let stack: TestStack;
  let brand: TestTenant;
  let receiver: TestTenant;
  let browser: Browser;
  let origin: string;
  let first: string;
  let second: string;
  const call = (method: string, path: string, body?: unknown, tenant = brand) =>
    stack.api.call(method, path, { key: tenant.testKey, ...(body === undefined ? {} : { body }) });

  beforeAll(async () => {
    const port = await freePort();
    stack = await startTestStack({ apiEnv: { PORT: String(port) } });
    origin = `http://localhost:${port}`;
    brand = await stack.api.createTenant('Voltaic Cells');
    receiver = await stack.api.createTenant('Second Life Batteries');
    first = await enrollAndMint(call, '04D7E8F9000001');
    second = await enrollAndMint(call, '04D7E8F9000002');
    await addConsoleUser(stack.api, brand.companyId, BRAND_OWNER, 'owner');
    await addConsoleUser(stack.api, receiver.companyId, RECEIVER_OWNER, 'owner');
    await addConsoleUser(stack.api, receiver.companyId, RECEIVER_VIEWER, 'viewer');
    browser = await launchChromium();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await stack?.close();
  });

  const checks = consoleChecks(
    () => browser,
    () => origin,
    { shotPrefix: 'transfers-' },
  );
  const { newContext, signIn, checkPage, openPage } = checks;
  const rowOf = (page: Page, list: string, tokenId: string) =>
    page
      .getByRole('table', { name: list })
      .getByRole('row')
      .filter({ hasText: `Passport ${tokenId}` });
  let brandPage: Page;
  let receiverPage: Page;

  test('the receiving company reads its company id on its Transfers page', async () => {
    const [, page] = await newContext();
    receiverPage = page;
    await signIn(page, RECEIVER_OWNER);
    await openPage(page, 'Transfers');
    await page.getByText('No passport was offered to you.').waitFor();
    await page.getByText(receiver.companyId, { exact: true }).waitFor();
    await checkPage(page, 'empty');
  });

  test('a brand offers a passport from its page; the other company accepts and the passport is its own', async () => {
    const [, page] = await newContext();
    brandPage = page;
    await signIn(page, BRAND_OWNER);
    await page.goto(`${origin}/console/passports/${first}`);
    await page.getByRole('link', { name: 'Hand over to another operator' }).click();
    await page.getByRole('heading', { level: 1, name: 'Transfers' }).waitFor();
    assert.equal(await page.getByLabel('Passport (token id)').inputValue(), first);
    await page.getByLabel('Company id of the receiving operator').fill(receiver.companyId);
    await page.getByLabel('Note to the receiver (optional)').fill('Second-life programme, lot 7');
    await checkPage(page, 'offer-form');
    await page.getByRole('button', { name: 'Review the offer' }).click();
    await page
      .getByText(/Once it accepts, the passport, its history and its chip are that company’s/)
      .waitFor();
    await page.getByRole('button', { name: `Confirm the offer of passport ${first}` }).click();
    await page
      .getByText(`Passport ${first} offered: it stays yours until the other company accepts.`)
      .waitFor();
    const offered = rowOf(page, 'Passports you offered', first);
    await offered.getByText('Second Life Batteries').waitFor();
    await offered.getByText(/^Waiting for a decision \(open until/).waitFor();
    await checkPage(page, 'offered');

    // The receiver: the offer is there with who offers it; accepting asks once more.
    await receiverPage.reload();
    const incoming = rowOf(receiverPage, 'Passports offered to you', first);
    await incoming.getByText('Voltaic Cells').waitFor();
    await incoming.getByText('“Second-life programme, lot 7”').waitFor();
    await incoming.getByRole('button', { name: `Accept passport ${first}` }).click();
    await incoming.getByText(/Take over passport .* from Voltaic Cells\?/).waitFor();
    await checkPage(receiverPage, 'accept-confirm');
    await incoming.getByRole('button', { name: `Confirm taking over passport ${first}` }).click();
    await receiverPage
      .getByText(`Passport ${first} is now your company’s: you can change it from its page.`)
      .waitFor();
    await incoming.getByText(/^Accepted on /).waitFor();
    await checkPage(receiverPage, 'accepted');
    await incoming.getByRole('link', { name: `Passport ${first}` }).click();
    await receiverPage.getByRole('heading', { level: 1, name: `Passport ${first}` }).waitFor();
    await receiverPage.getByText('Trail Jacket').first().waitFor();

    // The brand: accepted, and the passport is no longer its own.
    await page.reload();
    await rowOf(page, 'Passports you offered', first)
      .getByText(/^Accepted on /)
      .waitFor();
    assert.equal(await rowOf(page, 'Passports you offered', first).getByRole('link').count(), 0);
    assert.equal((await call('GET', `/v1/dpp/passports/${first}`)).status, 404);
    assert.equal((await call('GET', `/v1/dpp/passports/${first}`, undefined, receiver)).status, 200);
  });

  test('a viewer sees an offer without the decisions; the owner declines it; the brand can withdraw its own', async () => {
    const offered = await call('POST', `/v1/dpps/${encodeURIComponent(await dppIdOf(second))}/transfers`, {
      toCompanyId: receiver.companyId,
    });
    assert.equal(offered.status, 201, offered.text);

    const [, viewer] = await newContext();
    await signIn(viewer, RECEIVER_VIEWER);
    await viewer.goto(`${origin}/console/settings/transfers`);
    await rowOf(viewer, 'Passports offered to you', second)
      .getByText(/^Waiting for a decision/)
      .waitFor();
    await viewer.getByText(/you can see the transfers; owners and developers offer/).waitFor();
    assert.equal(await rowOf(viewer, 'Passports offered to you', second).getByRole('button').count(), 0);
    const refused = await viewer.evaluate(async (path) => {
      const response = await fetch(path, { method: 'POST', headers: { 'x-service-env': 'test' } });
      return response.status;
    }, `/v1/transfers/${offered.body.transfer.id}/accept`);
    assert.equal(refused, 403, 'the API refuses a viewer too');
    await checkPage(viewer, 'viewer');

    await receiverPage.goto(`${origin}/console/settings/transfers`);
    await rowOf(receiverPage, 'Passports offered to you', second)
      .getByRole('button', { name: `Decline passport ${second}` })
      .click();
    await receiverPage.getByText(`The offer of passport ${second} is declined.`).waitFor();
    await rowOf(receiverPage, 'Passports offered to you', second)
      .getByText(/^Declined on /)
      .waitFor();

    // Offered again, then withdrawn by the brand.
    const again = await call('POST', `/v1/dpps/${encodeURIComponent(await dppIdOf(second))}/transfers`, {
      toCompanyId: receiver.companyId,
    });
    assert.equal(again.status, 201, again.text);
    await brandPage.reload();
    const rows = brandPage.getByRole('table', { name: 'Passports you offered' }).getByRole('row');
    await rows
      .filter({ hasText: /Waiting for a decision/ })
      .getByRole('button', { name: `Withdraw the offer of passport ${second}` })
      .click();
    await brandPage.getByText(`The offer of passport ${second} is withdrawn.`).waitFor();
    assert.equal((await call('GET', '/v1/transfers')).body.transfers[0].status, 'withdrawn');
    assert.deepEqual(
      checks.errors.filter((e) => !e.startsWith('Failed to load resource')),
      [],
    );
  });

  const dppIdOf = async (tokenId: string) =>
    (await call('GET', `/v1/dpp/passports/${tokenId}`)).body.passport.digitalProductPassportId as string;
});
