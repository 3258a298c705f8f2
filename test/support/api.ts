import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type AppDeps, createApp } from '../../api/app.ts';
import { listen, type RunningHttpServer } from '../../api/server.ts';
import { createCompanyWithKey } from '../../src/accounts/companies/companies.ts';
import { createApiKey } from '../../src/accounts/keys/api-keys.ts';
import { type Config, loadConfig } from '../../src/platform/config/config.ts';
import { createLogger } from '../../src/platform/logging/logger.ts';
import { createTestDatabase, type TestDatabase } from './database.ts';
import { stripeTestEnv } from './stripe.ts';

export interface TestTenant {
  companyId: string;
  testKey: string;
  liveKey: string;
}

export interface CallOptions {
  env?: string | null;
  key?: string | null;
  body?: unknown;
  rawBody?: string;
  headers?: Record<string, string>;
}

export interface CallResult {
  status: number;
  headers: Headers;
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON bodies
  body: any;
  text: string;
}

/** A call as one tenant's key makes it: the body, when given, sent as JSON. */
export type TenantCall = (method: string, path: string, body?: unknown) => Promise<CallResult>;

export interface TestApi {
  db: TestDatabase;
  config: Config;
  http: RunningHttpServer;
  baseUrl: string;
  call(method: string, path: string, options?: CallOptions): Promise<CallResult>;
  createTenant(name?: string): Promise<TestTenant>;
  close(): Promise<void>;
}

/** The real Koa app on a real port over a fresh real database. */
export async function startTestApi(
  env: Record<string, string> = {},
  extraDeps: (config: Config) => Partial<AppDeps> = () => ({}),
): Promise<TestApi> {
  const db = await createTestDatabase();
  const ipfsDir = await mkdtemp(join(tmpdir(), 'dpp-ipfs-'));
  // The development defaults npm start has (local webhook receivers in the test environment, …).
  const config = loadConfig(
    {
      LOG_LEVEL: process.env.LOG_LEVEL ?? 'silent',
      DATABASE_URL: db.url,
      IPFS_STORE_DIR: ipfsDir,
      ...stripeTestEnv(),
      ...env,
    },
    { developmentDefaults: true },
  );
  const app = createApp({ config, orm: db.orm, logger: createLogger(config.logLevel), ...extraDeps(config) });
  // A test that needs its origin known in advance (passkeys) passes PORT; others take any free port.
  const http = await listen(app, '127.0.0.1', env.PORT ? config.port : 0, {
    bodyReadTimeoutMs: config.limits.bodyReadTimeoutMs,
  });
  const baseUrl = http.url;
  return {
    db,
    config,
    http,
    baseUrl,
    async call(method, path, options = {}) {
      const headers: Record<string, string> = { ...options.headers };
      if (options.env !== null) headers['x-service-env'] = options.env ?? 'test';
      if (options.key) headers.authorization = `Bearer ${options.key}`;
      let body: string | undefined = options.rawBody;
      if (options.body !== undefined) body = JSON.stringify(options.body);
      if (body !== undefined) headers['content-type'] ??= 'application/json';
      const response = await fetch(`${baseUrl}${path}`, { method, headers, body, redirect: 'manual' });
      const text = await response.text();
      let parsed: unknown;
      try {
        parsed = text ? JSON.parse(text) : undefined;
      } catch {
        parsed = undefined;
      }
      return { status: response.status, headers: response.headers, body: parsed, text };
    },
    async createTenant(name = 'Acme Apparel') {
      const created = await createCompanyWithKey(db.orm.em, { name, environment: 'test' });
      const live = await createApiKey(
        db.orm.em.fork(),
        { companyId: created.company.id, environment: 'live' },
        'Live key',
      );
      return { companyId: created.company.id, testKey: created.apiKey.key, liveKey: live.key };
    },
    async close() {
      await http.close(0);
      await db.drop();
      await rm(ipfsDir, { recursive: true, force: true });
    },
  };
}
