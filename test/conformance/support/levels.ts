import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { stack } from '../../journeys/client.ts';
import { api } from './passport.ts';

/** A model or batch passport the checks judge beside the item: its Digital Link path and address. */
export interface ConformanceLevel {
  granularity: 'model' | 'batch';
  dppId: string;
  /** `/test/01/{gtin}` or `/test/01/{gtin}/10/{lot}`. */
  path: string;
  digitalLink: string;
}

/** A product of its own (no item is minted under it), so the item's checks are not changed by its levels. */
export const LEVEL_GTIN = '04012345000108';
export const LEVEL_LOT = 'HEAT-2026-47';
const BATTERY = 'urn:dpp-service:spec:battery:1.0.0';

/**
 * A model passport and a batch passport of one battery product, made once per run through the EN 18222 create
 * (`POST /v1/dpps`) as a brand makes them, with the company's header settings the item's checks set; shared by
 * every check file (the run's data directory keeps them).
 */
export async function conformanceLevels(): Promise<{ model: ConformanceLevel; batch: ConformanceLevel }> {
  const file = join(stack().dataDir, 'conformance', 'levels.json');
  if (existsSync(file)) return JSON.parse(await readFile(file, 'utf8'));
  const settings = await api('PATCH', '/v1/company/settings', {
    economicOperatorId: '4012345000009',
    facilityId: 'urn:epc:id:sgln:4012345.00001.0',
  });
  assert.equal(settings.status, 200, settings.text.slice(0, 300));
  const made = async (granularity: 'Model' | 'Batch', body: Record<string, unknown>) => {
    const answer = await api('POST', '/v1/dpps', { granularity, gtin: LEVEL_GTIN, ...body });
    assert.equal(answer.status, 201, answer.text.slice(0, 300));
    return answer.body.digitalProductPassportId as string;
  };
  const modelId = await made('Model', {
    [BATTERY]: {
      generalProductInformation: {
        manufacturerName: 'Trail Brand Cells',
        warrantyPeriod: 'P8Y',
        countryOfProduction: 'DE',
      },
    },
  });
  const batchId = await made('Batch', {
    lot: LEVEL_LOT,
    [BATTERY]: { generalProductInformation: { manufacturingDate: '2026-11-02', countryOfProduction: 'PL' } },
  });
  const level = (granularity: 'model' | 'batch', dppId: string, path: string): ConformanceLevel => ({
    granularity,
    dppId,
    path,
    digitalLink: `${stack().baseUrl}${path}`,
  });
  const levels = {
    model: level('model', modelId, `/test/01/${LEVEL_GTIN}`),
    batch: level('batch', batchId, `/test/01/${LEVEL_GTIN}/10/${LEVEL_LOT}`),
  };
  await mkdir(join(stack().dataDir, 'conformance'), { recursive: true });
  await writeFile(file, JSON.stringify(levels));
  return levels;
}
