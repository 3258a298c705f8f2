import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import type { TestApi } from './api.ts';

/** On Settings › Webhooks: presses the log's Refresh until a row matching `row` shows (deliveries run behind). */
export async function logShows(page: Page, row: RegExp) {
  const log = page.getByRole('region', { name: /Deliveries to/ });
  const deadline = Date.now() + 30_000;
  while ((await log.getByRole('row', { name: row }).count()) === 0) {
    assert.ok(Date.now() < deadline, `the log shows a row like ${row}`);
    await log.getByRole('button', { name: 'Refresh the log' }).click();
    await page.waitForTimeout(300);
  }
  return log.getByRole('row', { name: row }).first();
}

/** On Settings › Webhooks: adds an endpoint for `eventTypes` and dismisses its signing secret. */
export async function addEndpoint(page: Page, url: string, eventTypes: string[]) {
  await page.locator('#endpoint-url').fill(url);
  for (const type of eventTypes) await page.getByRole('checkbox', { name: type }).first().check();
  await page.getByRole('button', { name: 'Add endpoint' }).click();
  await page.getByLabel('New signing secret').waitFor();
  await page.getByRole('button', { name: 'I have stored it' }).click();
  await page.getByRole('row', { name: new RegExp(url.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')) }).waitFor();
}

/** The deliveries to the endpoint at `url`, oldest first, as the database holds them. */
export function deliveriesTo(api: TestApi, url: string) {
  return api.db.orm.em.fork().execute<{ id: string; status: string; attempt_count: number }[]>(
    `select d.id, d.status, d.attempt_count from webhook_deliveries d
     join webhook_endpoints e on e.id = d.endpoint_id where e.url = ? order by d.created_at`,
    [url],
  );
}
