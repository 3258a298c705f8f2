import { mkdir } from 'node:fs/promises';
import type { BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import { ARTIFACTS_DIR } from '../support/browser.ts';
import { consoleChecks } from '../support/console-browser.ts';

/** Where the verification page's screenshots go (look at them). */
export const VERIFY_SHOTS = new URL('verify/', ARTIFACTS_DIR);

/** A phone as it opens a tapped tag: 390 px, touch; its requests name the test environment. */
export const PHONE: BrowserContextOptions = {
  viewport: { width: 390, height: 844 },
  deviceScaleFactor: 2,
  isMobile: true,
  hasTouch: true,
  extraHTTPHeaders: { 'x-service-env': 'test' },
};

/**
 * Opens verification pages and checks what every one must be: no serious axe violation (WCAG 2.1 AA), nothing
 * wider than the window, nothing from another origin, no script error or failed load; keeps a screenshot.
 */
export function verifyPageChecks(origin: () => string) {
  const problems: string[] = [];
  const open = async (context: BrowserContext, path: string): Promise<Page> => {
    const page = await context.newPage();
    page.on('request', (request) => {
      const url = request.url();
      if (!url.startsWith(origin()) && !url.startsWith('data:')) problems.push(`off origin: ${url}`);
    });
    page.on('pageerror', (error) => problems.push(error.message));
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text());
    });
    page.on('response', (response) => {
      if (response.status() >= 400) problems.push(`${response.status()} ${response.url()}`);
    });
    await page.goto(`${origin()}${path}`);
    await page.emulateMedia({ reducedMotion: 'reduce' });
    return page;
  };
  // The console's axe (WCAG 2.1 A/AA, no serious or critical violation) and width checks, on our pages.
  const { accessible, fitsWidth } = consoleChecks(() => {
    throw new Error('not used: these checks take a page');
  }, origin);
  const check = async (page: Page, name: string) => {
    await accessible(page, name);
    await fitsWidth(page, name);
    await mkdir(VERIFY_SHOTS, { recursive: true });
    await page.screenshot({ path: new URL(`${name}.png`, VERIFY_SHOTS).pathname, fullPage: true });
  };
  return { open, check, problems };
}
