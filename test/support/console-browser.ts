import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { AxeBuilder } from '@axe-core/playwright';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { ARTIFACTS_DIR } from './browser.ts';

/** Every console page's screenshot, kept as a test artefact (gitignored). */
export const CONSOLE_SHOTS = fileURLToPath(new URL('console/', ARTIFACTS_DIR));
export const PHONE = { width: 390, height: 844 };

/**
 * What the console's browser tests check on every page: axe-core (WCAG 2.1 A/AA, no serious or critical
 * violation), nothing wider than a phone's screen, a screenshot; and, over the whole run, script errors,
 * failed responses and requests to other origins.
 */
export function consoleChecks(browser: () => Browser, origin: () => string) {
  const errors: string[] = [];
  const failedResponses: string[] = [];
  const foreignRequests: string[] = [];

  const newContext = async (viewport = { width: 1280, height: 800 }): Promise<[BrowserContext, Page]> => {
    await mkdir(CONSOLE_SHOTS, { recursive: true });
    const context = await browser().newContext({ viewport });
    const page = await context.newPage();
    page.on('console', (message) => {
      if (message.type() === 'error' && new URL(page.url()).pathname.startsWith('/console')) {
        errors.push(message.text());
      }
    });
    page.on('pageerror', (error) => errors.push(error.message));
    page.on('response', (response) => {
      if (response.status() >= 400) failedResponses.push(`${response.status()} ${response.url()}`);
    });
    page.on('request', (request) => {
      const url = request.url();
      // Only what the console's pages load (an identity provider's own page may load what it likes).
      const onConsole = page.url().startsWith(origin());
      if (onConsole && !url.startsWith(origin()) && !url.startsWith('data:')) foreignRequests.push(url);
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
    page.screenshot({ path: `${CONSOLE_SHOTS}${name}.png`, fullPage: true });

  /** axe, screenshot, and the same page at a phone's width (fits, axe, screenshot `<name>-phone`). */
  const checkPage = async (page: Page, name: string) => {
    await accessible(page, name);
    await shoot(page, name);
    const viewport = page.viewportSize();
    await page.setViewportSize(PHONE);
    await fitsWidth(page, `${name} (phone)`);
    await accessible(page, `${name} (phone)`);
    await shoot(page, `${name}-phone`);
    if (viewport) await page.setViewportSize(viewport);
  };

  return { errors, failedResponses, foreignRequests, newContext, accessible, fitsWidth, shoot, checkPage };
}
