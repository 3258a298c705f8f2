import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { stack } from './client.ts';

/** The GTIN of the journeys' products (check digit valid). */
export const JOURNEY_GTIN = '04012345000016';

/** What one journey leaves for the next (the brand's passports for the consumer, the resale, the recycler). */
export async function remember(name: string, value: unknown): Promise<void> {
  const dir = join(stack().dataDir, 'journeys');
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, `${name}.json`), JSON.stringify(value));
}

export async function recall<T>(name: string): Promise<T> {
  return JSON.parse(await readFile(join(stack().dataDir, 'journeys', `${name}.json`), 'utf8')) as T;
}
