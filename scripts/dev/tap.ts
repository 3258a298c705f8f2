import { rmSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Environment } from '../../src/platform/config/config.ts';
import { normalizeChipUid } from '../../src/standards/sun/chip-uid.ts';
import { FACTORY_DEFAULT_KEY, generateSun } from '../../src/standards/sun/index.ts';

export interface DevTap {
  chipUid: string;
  counter: number;
  /** `picc_data=…&cmac=…`: what `nfcData` takes (enroll, mint, claim, verify). */
  query: string;
  /** The tap as a phone opens it, when the passport's GTIN and serial are known. */
  url: string | undefined;
}

/**
 * A tap of a development chip (NTAG 424 DNA with the factory's all-zero keys, as `npm start`'s companies use),
 * each with the next read counter, kept per chip in `counterFile` so every tap is fresh.
 */
export async function devTap(options: {
  chipUid: string;
  counterFile: string;
  counter?: number;
  passport?: { baseUrl: string; environment: Environment; gtin: string; serial: string };
}): Promise<DevTap> {
  const uid = normalizeChipUid(options.chipUid);
  if (!uid.ok) throw new TypeError(uid.message);
  const counters = JSON.parse(await readFile(options.counterFile, 'utf8').catch(() => '{}')) as Record<
    string,
    number
  >;
  const counter = options.counter ?? (counters[uid.uid] ?? 0) + 1;
  counters[uid.uid] = Math.max(counter, counters[uid.uid] ?? 0);
  await mkdir(dirname(options.counterFile), { recursive: true });
  await writeFile(options.counterFile, `${JSON.stringify(counters, null, 2)}\n`);
  const sun = generateSun({
    uid: uid.uid,
    counter,
    keys: { metaReadKey: FACTORY_DEFAULT_KEY, fileReadKey: FACTORY_DEFAULT_KEY },
  });
  const query = `picc_data=${sun.piccData}&cmac=${sun.cmac}`;
  const p = options.passport;
  const url = p
    ? `${p.baseUrl}${p.environment === 'test' ? '/test' : ''}/01/${p.gtin}/21/${encodeURIComponent(p.serial)}?${query}`
    : undefined;
  return { chipUid: uid.uid, counter, query, url };
}

/** Where `npm start` notes the address it serves at while it runs (removed when it stops). */
export const RUNNING_SERVICE_FILE = '.data/running-service.json';

/** Called by the launcher once the API listens: the CLI's tap URLs then name this address. */
export async function noteRunningService(baseUrl: string, file = RUNNING_SERVICE_FILE): Promise<() => void> {
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, `${JSON.stringify({ baseUrl, pid: process.pid })}\n`);
  return () => rmSync(file, { force: true });
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/**
 * The base URL a tap should open: PUBLIC_BASE_URL or PORT given to the CLI itself wins; otherwise the running
 * `npm start`'s own (whatever PORT it was started with); otherwise the configured default.
 */
export async function tapBaseUrl(
  env: NodeJS.ProcessEnv,
  configured: string,
  file = RUNNING_SERVICE_FILE,
): Promise<string> {
  if (env.PUBLIC_BASE_URL || env.PORT) return configured;
  try {
    const running = JSON.parse(await readFile(file, 'utf8')) as { baseUrl?: unknown; pid?: unknown };
    if (typeof running.baseUrl === 'string' && typeof running.pid === 'number' && alive(running.pid)) {
      return running.baseUrl;
    }
  } catch {
    // No service running from this directory.
  }
  return configured;
}
