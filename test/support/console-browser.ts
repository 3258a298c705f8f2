import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { AxeBuilder } from '@axe-core/playwright';
import type { Browser, BrowserContext, BrowserContextOptions, ConsoleMessage, Page } from 'playwright-core';
import { hashPassword } from '../../src/accounts/identity/passwords.ts';
import type { TestApi } from './api.ts';
import { ARTIFACTS_DIR } from './browser.ts';

/** Every console page's screenshot, kept as a test artefact (gitignored). */
export const CONSOLE_SHOTS = fileURLToPath(new URL('console/', ARTIFACTS_DIR));
export const PHONE = { width: 390, height: 844 };
/** The password every console test's people sign in with. */
export const CONSOLE_PASSWORD = 'a passphrase long enough for the policy';

/** A person of the company who can sign in to the console at once (e-mail confirmed, CONSOLE_PASSWORD). */
export async function addConsoleUser(api: TestApi, companyId: string, email: string, role: string) {
  await api.db.orm.em.fork().execute(
    `insert into users (company_id, email, password_hash, email_confirmed_at, role, created_at)
     values (?, ?, ?, now(), ?, now())`,
    [companyId, email, await hashPassword(CONSOLE_PASSWORD), role],
  );
}

/** How one test file's checks differ from the rest; each left out keeps the default. */
export interface ConsoleCheckOptions {
  /** Put before every screenshot's file name. */
  shotPrefix?: string;
  /** A new context's window, unless the test names one (default 1280×800). */
  viewport?: { width: number; height: number };
  /** More of Playwright's context options (acceptDownloads, timezoneId). */
  contextOptions?: BrowserContextOptions;
  /** Requests to other origins count from every page, not only while the page is on the console's origin. */
  foreignFromEveryPage?: boolean;
  /** Records a console error in `errors` its own way (default: its text, when the page is under /console). */
  recordConsoleError?: (message: ConsoleMessage, page: Page, errors: string[]) => void;
}

const recordOnConsolePages = (message: ConsoleMessage, page: Page, errors: string[]) => {
  // Pages outside the console (a JSON link: Chromium asks it for /favicon.ico) do not count.
  if (new URL(page.url()).pathname.startsWith('/console')) errors.push(message.text());
};

/** Records any page's console error but a failed load, with its page and arguments (to find its cause). */
export function recordWithArgumentsButFailedLoads(message: ConsoleMessage, page: Page, errors: string[]) {
  if (/^Failed to load resource/.test(message.text())) return;
  void Promise.all(message.args().map((arg) => arg.jsonValue())).then(
    (args) => errors.push(`${page.url()} ${message.text()} ${JSON.stringify(args).slice(0, 2000)}`),
    () => errors.push(message.text()),
  );
}

/**
 * What the console's browser tests check on every page: axe-core (WCAG 2.1 A/AA, no serious or critical
 * violation), nothing wider than a phone's screen, a screenshot; and, over the whole run, script errors,
 * failed responses and requests to other origins.
 */
export function consoleChecks(
  browser: () => Browser,
  origin: () => string,
  options: ConsoleCheckOptions = {},
) {
  const recordConsoleError = options.recordConsoleError ?? recordOnConsolePages;
  const errors: string[] = [];
  const failedResponses: string[] = [];
  const foreignRequests: string[] = [];

  const newContext = async (
    viewport = options.viewport ?? { width: 1280, height: 800 },
  ): Promise<[BrowserContext, Page]> => {
    await mkdir(CONSOLE_SHOTS, { recursive: true });
    const context = await browser().newContext({ ...options.contextOptions, viewport });
    const page = await context.newPage();
    page.on('console', (message) => {
      if (message.type() === 'error') recordConsoleError(message, page, errors);
    });
    page.on('pageerror', (error) => errors.push(error.message));
    page.on('response', (response) => {
      if (response.status() >= 400) failedResponses.push(`${response.status()} ${response.url()}`);
    });
    page.on('request', (request) => {
      const url = request.url();
      // Only what the console's pages load (an identity provider's own page may load what it likes).
      const counts = options.foreignFromEveryPage || page.url().startsWith(origin());
      if (counts && !url.startsWith(origin()) && !url.startsWith('data:')) foreignRequests.push(url);
    });
    return [context, page];
  };

  const accessible = async (page: Page, name: string) => {
    const results = await new AxeBuilder({ page })
      .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
      .analyze();
    const bad = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    assert.deepEqual(
      bad.map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
      [],
      `${name}: accessibility violations`,
    );
    assert.ok(results.passes.length > 10, `${name}: axe ran its rules`);
  };

  const fitsWidth = async (page: Page, name: string) => {
    const { scroll, width } = await page.evaluate(() => ({
      scroll: document.documentElement.scrollWidth,
      width: window.innerWidth,
    }));
    assert.ok(scroll <= width, `${name}: ${scroll}px of content in a ${width}px window`);
  };

  const shoot = (page: Page, name: string) =>
    page.screenshot({ path: `${CONSOLE_SHOTS}${options.shotPrefix ?? ''}${name}.png`, fullPage: true });

  /** Signs in on the console's sign-in page with e-mail and password: the console opens on the Overview. */
  const signInToOverview = async (page: Page, email: string, password = CONSOLE_PASSWORD) => {
    await page.goto(`${origin()}/console/sign-in`);
    await page.getByRole('textbox', { name: 'E-mail', exact: true }).fill(email);
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
  };

  /** Signs in, then opens Settings › Developers (where most console tests start). */
  const signIn = async (page: Page, email: string, password = CONSOLE_PASSWORD) => {
    await signInToOverview(page, email, password);
    await page.goto(`${origin()}/console/settings/developers`);
    await page.getByRole('heading', { level: 1, name: 'Developers' }).waitFor();
  };

  /** axe, then a screenshot of the same name. */
  const accessibleShot = async (page: Page, name: string) => {
    await accessible(page, name);
    await shoot(page, name);
  };

  /** Follows the navigation's link `name` to the page of that heading. */
  const openPage = async (page: Page, name: string, options: { exact?: boolean } = {}) => {
    // On a phone the navigation is folded behind the Menu button.
    const menu = page.getByRole('button', { name: 'Menu' });
    if ((await menu.isVisible()) && (await menu.getAttribute('aria-expanded')) === 'false')
      await menu.click();
    await page
      .getByRole('navigation', { name: 'Console' })
      .getByRole('link', { name, ...options })
      .click();
    await page.getByRole('heading', { level: 1, name }).waitFor();
  };

  /** axe, screenshot, and the same page at a phone's width (fits, axe, screenshot `<name>-phone`). */
  const checkPage = async (page: Page, name: string) => {
    await accessibleShot(page, name);
    const viewport = page.viewportSize();
    await page.setViewportSize(PHONE);
    await fitsWidth(page, `${name} (phone)`);
    await accessible(page, `${name} (phone)`);
    await shoot(page, `${name}-phone`);
    if (viewport) await page.setViewportSize(viewport);
  };

  return {
    errors,
    failedResponses,
    foreignRequests,
    newContext,
    accessible,
    fitsWidth,
    shoot,
    accessibleShot,
    openPage,
    checkPage,
    signIn,
    signInToOverview,
  };
}
