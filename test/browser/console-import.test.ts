import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { IMPORT_CHUNK } from '../../src/lifecycle/provision/spreadsheet-import-run.ts';
import { importJobId, importTwinId } from '../../src/lifecycle/provision/spreadsheet-import-store.ts';
import { freePort } from '../../src/platform/runtime/ports.ts';
import type { TestTenant } from '../support/api.ts';
import { launchChromium } from '../support/browser.ts';
import { addConsoleUser, consoleChecks, PHONE } from '../support/console-browser.ts';
import { holdTwin } from '../support/held-twin.ts';
import { startTestStack, type TestStack } from '../support/stack.ts';
import { writeXlsx } from '../support/xlsx-writer.ts';

const OWNER = 'owner@import.example';
const ROWS = 5_000;

/** The spreadsheet's rows: a header, then ROWS items; `bad` replaces some rows (by spreadsheet row number). */
function items(prefix: string, count: number, bad: Record<number, string[]> = {}): string[][] {
  const rows = [['material_number', 'order_id', 'conformity_url']];
  for (let i = 1; i <= count; i++) {
    const row = i + 1;
    rows.push(bad[row] ?? [`${prefix}-${i}`, `PO-${Math.ceil(i / 500)}`, 'https://acme.example/doc.pdf']);
  }
  return rows;
}
const csvOf = (rows: string[][]) =>
  Buffer.from(
    `${rows.map((cells) => cells.map((c) => (/[",\n]/.test(c) ? `"${c.replace(/"/g, '""')}"` : c)).join(',')).join('\r\n')}\r\n`,
  );

/**
 * Spreadsheet import (issue 36): a 5,000-row CSV with three bad rows is refused whole, each bad row named by
 * row, column and rule; the corrected file writes 5,000 twins with a progress bar that moves; the same file
 * again writes nothing; an XLSX workbook imports too. The import runs on the worker (a workflow) and the page
 * polls its stored progress: to see the bar part-way without timing luck, the test holds an uncommitted insert
 * of the twin the import writes for row 2,600, so the worker's chunk waits on the unique index while the
 * chunks before it are committed. axe and screenshots (1280 and 390 px) in test-artifacts/console/import-*.png.
 */
describe('console: spreadsheet import', () => {
  let stack: TestStack;
  let tenant: TestTenant;
  let browser: Browser;
  let origin: string;
  const twins = async () =>
    (
      await stack.api.db.orm.em
        .fork()
        .execute<{ n: number }[]>('select count(*)::int as n from asset_twins where company_id = ?', [
          tenant.companyId,
        ])
    )[0]!.n;

  beforeAll(async () => {
    const port = await freePort();
    stack = await startTestStack({ mintWaitMs: 2000, apiEnv: { PORT: String(port) } });
    origin = `http://localhost:${port}`;
    tenant = await stack.api.createTenant('Import Brand');
    await addConsoleUser(stack.api, tenant.companyId, OWNER, 'owner');
    browser = await launchChromium();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await stack?.close();
  });

  const { newContext, accessible, fitsWidth, shoot, signIn } = consoleChecks(
    () => browser,
    () => origin,
    { shotPrefix: 'import-' },
  );

  /** Uploads a file on the Add passports page; answers every value the progress bar showed. */
  const upload = async (page: Page, name: string, mimeType: string, buffer: Buffer) => {
    await page.evaluate(() => {
      const seen: number[] = [];
      (window as unknown as { progressSeen: number[] }).progressSeen = seen;
      const record = () => {
        const bar = document.querySelector('progress');
        if (bar && seen.at(-1) !== bar.value) seen.push(bar.value);
      };
      new MutationObserver(record).observe(document.body, {
        subtree: true,
        childList: true,
        attributes: true,
        attributeFilter: ['value'],
      });
    });
    await page.getByLabel('Spreadsheet (CSV or XLSX)').setInputFiles({ name, mimeType, buffer });
    await page.getByRole('button', { name: 'Import' }).click();
  };
  const progressSeen = (page: Page) =>
    page.evaluate(() => (window as unknown as { progressSeen: number[] }).progressSeen);

  test('three bad rows of 5,000 are named and nothing is written; fixed, all 5,000 are; again, none', async () => {
    const [, page] = await newContext();
    await signIn(page, OWNER);
    await page.goto(`${origin}/console/passports`);
    await page.getByRole('link', { name: 'Add passports' }).click();
    await page.getByRole('heading', { level: 1, name: 'Add passports' }).waitFor();
    await accessible(page, 'import');
    await shoot(page, 'page');

    const bad = items('MAT', ROWS, {
      102: ['', 'PO-1', 'https://acme.example/doc.pdf'],
      2503: ['MAT-2502', 'x'.repeat(101), ''],
      4999: ['MAT-4998', 'PO-10', 'not a link'],
    });
    await upload(page, 'items.csv', 'text/csv', csvOf(bad));
    await page.getByText('Nothing was written: 3 problems in the spreadsheet').waitFor({ timeout: 60_000 });
    const problems = await page
      .locator('.import-errors tbody tr')
      .evaluateAll((rows) =>
        rows.map((row) => Array.from(row.querySelectorAll('td'), (td) => td.textContent ?? '')),
      );
    assert.deepEqual(
      problems.map(([row, column]) => [row, column]),
      [
        ['102', 'material_number'],
        ['2503', 'order_id'],
        ['4999', 'conformity_url'],
      ],
    );
    assert.equal(problems[0]![2], 'Required: the cell is empty');
    assert.match(problems[1]![2]!, /100/, 'the rule: at most 100 characters');
    assert.equal(await twins(), 0, 'nothing half-written');
    await accessible(page, 'import refused');
    await shoot(page, 'refused');
    await page.setViewportSize(PHONE);
    await fitsWidth(page, 'import refused (phone)');
    await shoot(page, 'refused-phone');
    await page.setViewportSize({ width: 1280, height: 800 });

    const fixed = csvOf(items('MAT', ROWS));
    const scope = { companyId: tenant.companyId, environment: 'test' as const };
    const jobId = importJobId(scope, createHash('sha256').update(fixed).digest('hex'));
    // Row 2,600 is item 2,598 (from 0): the chunks before its own are written and committed, its chunk waits.
    const waitsAt = Math.floor(2_598 / IMPORT_CHUNK) * IMPORT_CHUNK;
    const held = await holdTwin(stack.api.db.url, scope, importTwinId(jobId, 2_600));
    try {
      await upload(page, 'items.csv', 'text/csv', fixed);
      const partWay = `Writing passports: ${waitsAt.toLocaleString('en')} of 5,000`;
      await page.getByText(partWay).waitFor({ timeout: 120_000 });
      const bar = page.getByRole('progressbar', { name: partWay });
      assert.equal(await bar.evaluate((el) => (el as HTMLProgressElement).value), waitsAt);
      assert.equal(await bar.evaluate((el) => (el as HTMLProgressElement).max), ROWS);
      assert.ok(waitsAt > 0 && waitsAt < ROWS);
      assert.equal(await twins(), waitsAt, 'the committed chunks, not the waiting one');
      await accessible(page, 'import writing');
      await shoot(page, 'writing');
    } finally {
      await held.release();
    }
    await page.getByText('5,000 passports reserved.').waitFor({ timeout: 120_000 });
    const seen = await progressSeen(page);
    assert.ok(seen.includes(waitsAt), `the bar showed the part-way value: ${seen.join(', ')}`);
    assert.equal(await twins(), ROWS);
    await accessible(page, 'import done');
    await shoot(page, 'done');

    await upload(page, 'items-again.csv', 'text/csv', fixed);
    await page.getByText('This file was already imported: its 5,000 passports exist').waitFor();
    assert.equal(await twins(), ROWS, 'the same file writes nothing twice');
  });

  test('an XLSX workbook imports the same way', async () => {
    const [, page] = await newContext(PHONE);
    await signIn(page, OWNER);
    await page.goto(`${origin}/console/import`);
    const workbook = writeXlsx(items('XL', 40));
    await upload(
      page,
      'items.xlsx',
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      workbook,
    );
    await page.getByText('40 passports reserved.').waitFor({ timeout: 60_000 });
    assert.equal(await twins(), ROWS + 40);
    const [row] = await stack.api.db.orm.em
      .fork()
      .execute<{ material_number: string; order_id: string }[]>(
        `select material_number, order_id from asset_twins where company_id = ? and material_number = 'XL-40'`,
        [tenant.companyId],
      );
    assert.deepEqual({ ...row }, { material_number: 'XL-40', order_id: 'PO-1' });
    await fitsWidth(page, 'import done (phone)');
    await accessible(page, 'import done (phone)');
    await shoot(page, 'done-phone');
  });
});
