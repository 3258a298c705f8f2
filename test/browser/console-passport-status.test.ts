import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { freePort } from '../../src/platform/runtime/ports.ts';
import type { TestTenant } from '../support/api.ts';
import { launchChromium } from '../support/browser.ts';
import { addConsoleUser, consoleChecks } from '../support/console-browser.ts';
import { enrollAndMint } from '../support/fixtures/mint.ts';
import { startTestStack, type TestStack } from '../support/stack.ts';
import { waitFor } from '../support/wait-for.ts';

const OWNER = 'owner@status.example';
const VIEWER = 'viewer@status.example';
const REFUSAL = 'Economic operator not verified (Art. 4).';

/**
 * A passport's records on its console page (issue 36): its EU registry registration in plain words (registered
 * with its number; refused with the registry's reason and a Retry that works), its backup copy, and the evidence
 * bundle to download. On the stack with the registry emulator; axe and screenshots at 1280 and 390 px in
 * test-artifacts/console/status-*.png.
 */
describe('a passport’s registry, backup and evidence in the console', () => {
  let stack: TestStack;
  let tenant: TestTenant;
  let browser: Browser;
  let origin: string;
  const call = (method: string, path: string, body?: unknown) =>
    stack.api.call(method, path, { key: tenant.testKey, ...(body === undefined ? {} : { body }) });
  const dppIdOf = async (tokenId: string) =>
    (await call('GET', `/v1/dpp/passports/${tokenId}`)).body.passport.digitalProductPassportId as string;
  const registration = async (tokenId: string) =>
    (await call('GET', `/v1/dpps/${encodeURIComponent(await dppIdOf(tokenId))}/registration`)).body;

  beforeAll(async () => {
    const port = await freePort();
    stack = await startTestStack({ registry: true, apiEnv: { PORT: String(port) } });
    origin = `http://localhost:${port}`;
    tenant = await stack.api.createTenant('Registered Goods');
    const settings = await call('PATCH', '/v1/company/settings', { economicOperatorId: 'DE123456789012345' });
    assert.equal(settings.status, 200, settings.text);
    await addConsoleUser(stack.api, tenant.companyId, OWNER, 'owner');
    await addConsoleUser(stack.api, tenant.companyId, VIEWER, 'viewer');
    browser = await launchChromium();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await stack?.close();
  });

  const checks = consoleChecks(
    () => browser,
    () => origin,
    { shotPrefix: 'status-' },
  );
  const { newContext, signIn, checkPage } = checks;
  const records = (page: Page) => page.getByRole('region', { name: 'Registry, backup and evidence' });
  let ownerPage: Page;

  test('a registered passport shows its registration number, its backup and its evidence bundle', async () => {
    const tokenId = await enrollAndMint(call, '04C5A7B0000001');
    const registered = await waitFor(
      'the registration',
      () => registration(tokenId),
      (read) => read.state === 'registered',
      30,
    );
    const [, page] = await newContext();
    ownerPage = page;
    await signIn(page, OWNER);
    await page.goto(`${origin}/console/passports/${tokenId}`);
    const section = records(page);
    await section.getByText(/Registered in the EU registry on [A-Z][a-z]{2} \d+, \d{4}/).waitFor();
    assert.match(registered.registryId, /^EU-DPP-/);
    await section.getByText(registered.registryId, { exact: true }).waitFor();
    await section.getByText('Version 1 (up to date)').waitFor();
    // The test stack configures no backup provider: the page says so rather than showing nothing.
    await section.getByText(/No backup provider is configured/).waitFor();
    await checkPage(page, 'registered');

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      section.getByRole('button', { name: 'Download the evidence bundle' }).click(),
    ]);
    assert.equal(download.suggestedFilename(), `passport-${tokenId}.evidence.json`);
    const bundle = JSON.parse(await readFile((await download.path())!, 'utf8'));
    assert.equal(bundle.format, 'dpp-evidence/1');
    assert.equal(bundle.passport.dppId, await dppIdOf(tokenId));
  });

  test('a refused registration shows the registry’s reason; Retry registers it once the cause is gone', async () => {
    stack.registry!.switches.refuse = REFUSAL;
    const tokenId = await enrollAndMint(call, '04C5A7B0000002');
    await waitFor(
      'the refusal',
      () => registration(tokenId),
      (read) => read.state === 'refused',
      30,
    );
    const page = ownerPage;
    await page.goto(`${origin}/console/passports/${tokenId}`);
    const section = records(page);
    await section.getByText(`Refused by the EU registry`, { exact: false }).waitFor();
    await section.getByText(REFUSAL, { exact: false }).waitFor();
    await checkPage(page, 'refused');

    // Retrying while the registry still refuses: refused again, and the page says so.
    await section.getByRole('button', { name: 'Retry the registration' }).click();
    await section.getByRole('button', { name: 'Retry the registration' }).waitFor({ timeout: 30_000 });
    await section.getByText(REFUSAL, { exact: false }).waitFor();

    stack.registry!.switches.refuse = null;
    await section.getByRole('button', { name: 'Retry the registration' }).click();
    await section.getByText('Sent again: waiting for the registry’s answer…').waitFor();
    await section.getByText(/Registered in the EU registry on/).waitFor({ timeout: 30_000 });
    const registered = await registration(tokenId);
    assert.equal(registered.state, 'registered');
    await section.getByText(registered.registryId, { exact: true }).waitFor();
    assert.equal(
      stack
        .registry!.state()
        .registrations.filter((r) => r.uniqueProductIdentifier === registered.uniqueProductIdentifier).length,
      1,
      'registered once',
    );
    await checkPage(page, 'retried');
  });

  test('a viewer sees a refusal but cannot retry it', async () => {
    stack.registry!.switches.refuse = REFUSAL;
    const tokenId = await enrollAndMint(call, '04C5A7B0000003');
    await waitFor(
      'the refusal',
      () => registration(tokenId),
      (read) => read.state === 'refused',
      30,
    );
    stack.registry!.switches.refuse = null;
    const [, page] = await newContext();
    await signIn(page, VIEWER);
    await page.goto(`${origin}/console/passports/${tokenId}`);
    const section = records(page);
    await section.getByText(REFUSAL, { exact: false }).waitFor();
    await section.getByText('Only an owner or a developer can send it again.').waitFor();
    assert.equal(await section.getByRole('button', { name: 'Retry the registration' }).count(), 0);
    // The API refuses a viewer's retry as well: the console has no side door.
    const dppId = await dppIdOf(tokenId);
    const retried = await page.evaluate(
      async (path) => {
        const response = await fetch(path, { method: 'POST', headers: { 'x-service-env': 'test' } });
        return response.status;
      },
      `/v1/dpps/${encodeURIComponent(dppId)}/registration/retry`,
    );
    assert.equal(retried, 403);
    assert.deepEqual(
      checks.errors.filter((e) => !e.startsWith('Failed to load resource')),
      [],
    );
  });
});
