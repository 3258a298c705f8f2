import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fullBatteryData } from '../../fixtures/battery-passport-data.ts';
import { http, stack } from '../../journeys/client.ts';
import { api, type ConformancePassport, conformancePassport } from './passport.ts';

export const BATTERY_SPEC = 'urn:dpp-service:spec:battery:1.0.0';

export interface ConformanceBattery extends ConformancePassport {
  dppId: string;
  /** `/v1/dpps/{dppId}/content/{specId}` of its battery data. */
  contentPath: string;
}

/**
 * A battery passport for the checks: the conformance product's third passport, its full battery data model
 * written (PUT …/content/urn:dpp-service:spec:battery:1.0.0) and a state-of-health update appended through the
 * dynamic data API, as a brand and its repairer do. Made once per run (the run's data directory remembers it).
 */
export async function conformanceBattery(): Promise<ConformanceBattery> {
  const file = join(stack().dataDir, 'conformance', 'battery.json');
  if (existsSync(file)) return JSON.parse(await readFile(file, 'utf8')) as ConformanceBattery;
  const passport = await conformancePassport(3);
  const view = await http('GET', `${passport.path}?format=public`, { env: null });
  assert.equal(view.status, 200, view.text.slice(0, 300));
  const dppId = view.body.dppHeader.digitalProductPassportId as string;
  const contentPath = `/v1/dpps/${encodeURIComponent(dppId)}/content/${encodeURIComponent(BATTERY_SPEC)}`;
  const written = await api('PUT', contentPath, fullBatteryData());
  assert.ok([200, 201].includes(written.status), written.text.slice(0, 500));
  const update = await api('POST', `${contentPath}/dynamic`, {
    batteryCondition: {
      measuredAt: '2026-11-24T09:00:00Z',
      stateOfHealthPercent: 94.2,
      stateOfChargePercent: 71,
      fullCycles: 260,
    },
  });
  assert.equal(update.status, 201, update.text.slice(0, 500));
  const battery: ConformanceBattery = { ...passport, dppId, contentPath };
  await mkdir(join(stack().dataDir, 'conformance'), { recursive: true });
  await writeFile(file, JSON.stringify(battery));
  return battery;
}
