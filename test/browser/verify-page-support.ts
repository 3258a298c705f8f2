import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import { AxeBuilder } from '@axe-core/playwright';
import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import { ARTIFACTS_DIR } from '../support/browser.ts';

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
  const check = async (page: Page, name: string) => {
    const results = await new AxeBuilder({ page })
      .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
      .analyze();
    const bad = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    assert.deepEqual(
      bad.map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
      [],
      `${name}: accessibility violations`,
    );
    const { scroll, width } = (await page.evaluate(
      '({ scroll: document.documentElement.scrollWidth, width: window.innerWidth })',
    )) as { scroll: number; width: number };
    assert.ok(scroll <= width, `${name}: ${scroll}px of content in ${width}px`);
    await mkdir(VERIFY_SHOTS, { recursive: true });
    await page.screenshot({ path: new URL(`${name}.png`, VERIFY_SHOTS).pathname, fullPage: true });
  };
  return { open, check, problems };
}

export type { Browser };
