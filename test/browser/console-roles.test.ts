import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { freePort } from '../../src/platform/runtime/ports.ts';
import type { TestTenant } from '../support/api.ts';
import { launchChromium } from '../support/browser.ts';
import { addConsoleUser, consoleChecks } from '../support/console-browser.ts';
import { enrollAndMint } from '../support/fixtures/mint.ts';
import { startTestStack, type TestStack } from '../support/stack.ts';

const OWNER = 'owner@roles.example';
const VIEWER = 'viewer@roles.example';

/**
 * Roles in the console (issue 36): a viewer walks every page and finds no action the API would refuse (each
 * is hidden, or disabled with the reason); an owner still finds them. The rights come from the session answer
 * (the API's one role table). Screenshots in test-artifacts/console/roles-*.png.
 */
describe('console roles (Chromium)', () => {
  let stack: TestStack;
  let tenant: TestTenant;
  let browser: Browser;
  let origin: string;
  let pages: string[];
  const call = (method: string, path: string, body?: unknown) =>
    stack.api.call(method, path, { key: tenant.testKey, ...(body === undefined ? {} : { body }) });

  beforeAll(async () => {
    const port = await freePort();
    stack = await startTestStack({ apiEnv: { PORT: String(port) } });
    origin = `http://localhost:${port}`;
    tenant = await stack.api.createTenant('Roles Brand');
    const tokenId = await enrollAndMint(call, '04B0E5000000A1');
    const passport = await call('GET', `/v1/dpp/passports/${tokenId}`);
    assert.equal(passport.status, 200, passport.text);
    const endpoint = await call('POST', '/v1/webhooks/endpoints', {
      url: 'http://127.0.0.1:9/hooks',
      eventTypes: ['asset.minted'],
    });
    assert.equal(endpoint.status, 201, endpoint.text);
    await addConsoleUser(stack.api, tenant.companyId, OWNER, 'owner');
    await addConsoleUser(stack.api, tenant.companyId, VIEWER, 'viewer');
    pages = [
      '/overview',
      '/passports',
      `/passports/${tokenId}`,
      '/import',
      `/authoring/${passport.body.passport.digitalProductPassportId}`,
      '/authoring/new',
      '/settings/company',
      '/settings/branding',
      '/settings/transfers',
      '/settings/developers',
      '/settings/developers/logs',
      '/settings/webhooks',
      '/settings/team',
      '/settings/billing',
      '/settings/compliance',
      '/settings/sso',
      '/settings/security',
    ];
    browser = await launchChromium();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await stack?.close();
  });

  const checks = consoleChecks(
    () => browser,
    () => origin,
    { shotPrefix: 'roles-' },
  );

  /** Buttons, links and selects that change something, as a person sees them on `path` (enabled, on screen). */
  const writeActions = async (page: Page, path: string) => {
    await page.goto(`${origin}/console${path}`);
    await page.locator('h1').first().waitFor();
    await page
      .getByText(/^(Loading|Checking)/)
      .first()
      .waitFor({ state: 'detached', timeout: 10_000 })
      .catch(() => undefined);
    // The page's own answers have arrived once nothing says it is loading; give React one more frame.
    await page.waitForTimeout(300);
    return page.evaluate(() => {
      const shown = (element: Element) => {
        const box = (element as HTMLElement).getBoundingClientRect();
        return box.width > 0 && box.height > 0 && getComputedStyle(element).visibility !== 'hidden';
      };
      const text = (element: Element) =>
        (element.getAttribute('aria-label') ?? element.textContent ?? '').trim().replace(/\s+/g, ' ');
      const main = document.querySelector('main')!;
      const buttons = Array.from(main.querySelectorAll('button'))
        .filter((b) => shown(b) && !b.matches(':disabled'))
        .map(text);
      const selects = Array.from(main.querySelectorAll('select'))
        .filter(
          (s) =>
            shown(s) && !s.matches(':disabled') && !s.closest('search, form[aria-label="Filter the log"]'),
        )
        .map((s) => `select ${s.id}`);
      const writable = Array.from(main.querySelectorAll('input:not([type=checkbox]), textarea'))
        .filter(
          (i) =>
            shown(i) &&
            !(i as HTMLInputElement).readOnly &&
            !i.matches(':disabled') &&
            !i.closest('search, form[aria-label="Filter the log"]'),
        )
        .map((i) => `field ${i.id}`);
      const links = Array.from(main.querySelectorAll('a'))
        .filter((a) => shown(a) && /^(Add|Create|Edit|New)\b/.test(text(a)))
        .map((a) => `link ${text(a)}`);
      return [...buttons, ...selects, ...links, ...writable];
    });
  };

  /** What reads, navigates or concerns only the person themself: never refused for a role. */
  const HARMLESS = new RegExp(
    '^(Menu|Copy.*|Search|Clear|Reload|Refresh.*|Apply filters|Pause live updates|Resume live updates|' +
      'Show .*|Hide .*|Download .*|Deliveries.*|Attempts.*|Close|Older.*|Newer.*|Next.*|Previous.*|More .*|' +
      // A request-log row opens its entry.
      '(GET|POST|PUT|PATCH|DELETE) /.*|' +
      // The person's own sign-in means: never a company's right.
      'Add a passkey|Remove .*passkey.*|Make new recovery codes|' +
      // The request log's filters.
      'select log-.*|field log-.*)$',
  );

  test('a viewer finds no action the API would refuse; an owner finds them', async () => {
    const [viewerContext, viewer] = await checks.newContext();
    await checks.signInToOverview(viewer, VIEWER);
    const session = await viewer.evaluate(async () => {
      const response = await fetch('/v1/console/session', { headers: { 'x-service-env': 'test' } });
      return (await response.json()) as { user: { role: string; rights: string[] } };
    });
    assert.deepEqual(session.user.rights, ['read']);

    const [ownerContext, owner] = await checks.newContext();
    await checks.signInToOverview(owner, OWNER);

    const offeredToOwnerOnly: string[] = [];
    for (const path of pages) {
      const ownerActions = (await writeActions(owner, path)).filter((name) => !HARMLESS.test(name));
      const viewerActions = (await writeActions(viewer, path)).filter((name) => !HARMLESS.test(name));
      assert.deepEqual(viewerActions, [], `${path}: a viewer is offered what the API refuses`);
      if (ownerActions.length > 0) {
        offeredToOwnerOnly.push(...ownerActions.map((name) => `${path}: ${name}`));
        // Where the owner acts, the viewer is told why they cannot.
        await viewer
          .getByText(/your role is viewer/i)
          .first()
          .waitFor({ timeout: 5000 })
          .catch(() => assert.fail(`${path}: the viewer is not told why the actions are missing`));
      }
      const name = path.startsWith('/authoring/urn')
        ? 'authoring-passport'
        : path.replaceAll('/', '-').replace(/^-/, '');
      await checks.accessibleShot(viewer, `viewer-${name}`);
    }
    // The owner keeps every action (a sample of each page that has some).
    for (const expected of [
      '/passports: link Add passports',
      '/import: Import',
      '/settings/company: Save the test settings',
      '/settings/branding: Save branding',
      '/settings/transfers: Offer a passport',
      '/settings/developers: Create key',
      '/settings/webhooks: Add endpoint',
      '/settings/team: Send invitation',
      '/settings/billing: Subscribe to',
      '/settings/compliance: Submit for verification',
      '/settings/sso: Claim domain',
      '/authoring/new: Create the model passport',
    ]) {
      assert.ok(
        offeredToOwnerOnly.some((action) => action.startsWith(expected)),
        `the owner is offered ${expected}`,
      );
    }
    assert.ok(
      offeredToOwnerOnly.some((action) => /^\/passports\/\w+: Revoke passport/.test(action)),
      offeredToOwnerOnly.join(' | '),
    );

    // The API agrees with what the page shows: the same write from the viewer's session is refused.
    const refused = await viewer.evaluate(async () => {
      const response = await fetch('/v1/company/settings', {
        method: 'PATCH',
        headers: { 'x-service-env': 'test', 'content-type': 'application/json' },
        body: JSON.stringify({ warrantyMonths: 12 }),
      });
      return { status: response.status, body: await response.json() };
    });
    assert.equal(refused.status, 403);
    assert.equal(refused.body.code, 'role_forbidden');
    await viewerContext.close();
    await ownerContext.close();
  });
});
