import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { freePort } from '../../src/platform/runtime/ports.ts';
import { ensureChromium } from '../support/chromium-install.ts';
import { type ServiceProcess, startServiceProcess } from '../support/service-process.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    journeys: JourneyStack;
  }
}

/** What a person reads off `npm start`'s banner, and where its data is. */
export interface JourneyStack {
  baseUrl: string;
  /** The demo company's test key the banner prints. */
  demoKey: string;
  /** The signing secret for payment-provider events the banner prints. */
  stripeWebhookSecret: string;
  temporalUiUrl: string;
  /** The local chain node the banner's Chain line names (docs/evidence.md verifies against it). */
  chainRpc: string;
  /** The embedded PostgreSQL npm start runs (for the operator's CLI, as an operator would point it there). */
  databaseUrl: string;
  mailDir: string;
  dataDir: string;
}

/**
 * Starts the service once with `npm start` — the README's command, its launcher and defaults — on data
 * directories and ports of this run's own (so a developer's `npm start` is not disturbed), and stops it with
 * Ctrl-C at the end.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  await ensureChromium();
  return startNpmStart(project, 'journeys');
}

/** `npm start` for a suite of HTTP-only checks (the journeys, `npm run conformance`): provides `journeys`. */
export async function startNpmStart(project: TestProject, label: string): Promise<() => Promise<void>> {
  const dataDir = await mkdtemp(join(tmpdir(), `dpp-${label}-`));
  // Under root the embedded PostgreSQL runs as its own user, which must reach its directory inside.
  await chmod(dataDir, 0o755);
  const port = await freePort();
  const env = {
    PORT: String(port),
    TEMPORAL_DEV_PORT: String(await freePort()),
    EMBEDDED_PG_PORT: String(await freePort()),
    EMBEDDED_PG_DIR: join(dataDir, 'postgres'),
    TEMPORAL_DEV_DB_FILE: join(dataDir, 'temporal', 'dev.db'),
    CHAIN_DATA_DIR: join(dataDir, 'chain'),
    IPFS_STORE_DIR: join(dataDir, 'ipfs'),
    DEV_MAIL_DIR: join(dataDir, 'mail'),
    LOG_LEVEL: 'warn',
  };
  const started = Date.now();
  let service: ServiceProcess;
  try {
    service = await startServiceProcess(env);
  } catch (error) {
    console.error((error as Error).message.slice(-4000));
    throw error;
  }
  console.log(`${label}: npm start ready in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  const output = service.output();
  const demoKey = /^\s+(sk_test_\w+)$/m.exec(output)?.[1];
  const stripeWebhookSecret = /sign webhook events with (whsec_[\w-]+)/.exec(output)?.[1];
  if (!demoKey || !stripeWebhookSecret)
    throw new Error(`the banner lacks the demo key or the Stripe secret:\n${output}`);
  const baseUrl = service.bannerValue('API');
  project.provide('journeys', {
    baseUrl,
    demoKey,
    stripeWebhookSecret,
    temporalUiUrl: service.bannerValue('Temporal UI'),
    chainRpc: /^\s*Chain\s+anvil\s+(\S+)/m.exec(output)?.[1] ?? '',
    databaseUrl: `postgres://postgres:postgres@127.0.0.1:${env.EMBEDDED_PG_PORT}/dpp`,
    mailDir: env.DEV_MAIL_DIR,
    dataDir,
  });
  return async () => {
    const stopped = await service.stop('SIGINT');
    console.log(`${label}: Ctrl-C stopped npm start in ${stopped.ms} ms (${stopped.exit})`);
    if (stopped.leftBehind || stopped.ms > 15_000) {
      throw new Error(`npm start did not stop cleanly: ${JSON.stringify(stopped)}`);
    }
    await rm(dataDir, { recursive: true, force: true });
  };
}
