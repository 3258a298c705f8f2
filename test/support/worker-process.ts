import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CallResult, TestTenant } from './api.ts';
import { mintBody } from './fixtures/mint.ts';
import { CONFORMITY_DOC } from './fixtures/products.ts';
import { LIVE_TEST_SECRETS } from './secrets.ts';
import { startTestStack, TEST_DEPOSIT, type TestStack } from './stack.ts';

const WORKER_MAIN = fileURLToPath(new URL('../../worker/main.ts', import.meta.url));

export interface WorkerProcess {
  pid: number;
  /** SIGTERM (the worker drains and exits, as in production); resolves once it is gone. */
  stop(): Promise<{ exitCode: number | null; signal: string | null; logs: Record<string, unknown>[] }>;
}

/**
 * The production worker entry point (worker/main.ts, docker-compose's `worker` service) in its own process,
 * configured only through environment variables for the stack's database, Temporal server, IPFS store and
 * chain. The test environment signs with the stack's platform key, so the stack must run without its own
 * worker and dispatcher (`startTestStack({ startWorker: false, dispatcher: false })`); the live environment
 * gets a contract of its own on the same anvil. Resolves once the worker is polling.
 */
export async function startWorkerProcess(
  stack: TestStack,
  options: { execArgv?: string[]; rpcUrl?: string; env?: Record<string, string> } = {},
): Promise<WorkerProcess> {
  const rpcUrl = options.rpcUrl ?? stack.chain.anvil.rpcUrl;
  const chainDir = await mkdtemp(join(tmpdir(), 'dpp-worker-chain-'));
  const child = spawn(process.execPath, [...(options.execArgv ?? []), WORKER_MAIN], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: {
      PATH: process.env.PATH,
      LOG_LEVEL: 'info',
      DATABASE_URL: stack.api.db.url,
      TEMPORAL_ADDRESS: stack.temporal.address,
      PUBLIC_BASE_URL: stack.api.config.publicBaseUrl,
      IPFS_STORE_DIR: stack.api.config.ipfs.storeDir,
      MINT_DEPOSIT: TEST_DEPOSIT,
      CHAIN_RPC_URL_TEST: rpcUrl,
      CONTRACT_ADDRESS_TEST: stack.chain.contractAddress,
      CHAIN_PRIVATE_KEY_TEST: stack.chain.platform.privateKey,
      ...LIVE_TEST_SECRETS,
      CHAIN_RPC_URL_LIVE: rpcUrl,
      CHAIN_PRIVATE_KEY_LIVE: stack.chain.others.at(-1)!.privateKey,
      CHAIN_AUTO_DEPLOY: 'true',
      CHAIN_DATA_DIR: chainDir,
      ...options.env,
    },
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const exited = new Promise<{ exitCode: number | null; signal: string | null }>((resolve) =>
    child.once('exit', (exitCode, signal) => resolve({ exitCode, signal })),
  );
  await waitForLog(child, () => output, 'worker running', 60_000);
  return {
    pid: child.pid!,
    stop: async () => {
      child.kill('SIGTERM');
      const exit = await exited;
      await rm(chainDir, { recursive: true, force: true });
      const logs = output
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as Record<string, unknown>);
      return { ...exit, logs };
    },
  };
}

/**
 * A test stack without its own worker and dispatcher, one tenant, and the production worker process
 * (startWorkerProcess, with `env` added to its environment) doing the stack's work.
 */
export async function startStackWithWorkerProcess(
  env: Record<string, string> = {},
): Promise<{ stack: TestStack; tenant: TestTenant; worker: WorkerProcess }> {
  const stack = await startTestStack({ startWorker: false, dispatcher: false, apiClient: 'native' });
  const tenant = await stack.api.createTenant();
  const worker = await startWorkerProcess(stack, { env });
  return { stack, tenant, worker };
}

/**
 * Enrols chip `uid` and mints its passport ('Parka') through the API with a tap signed by the factory-default
 * keys, so that the worker process runs one mint workflow; asserts both requests succeed (201).
 */
export async function enrollAndMintParka(
  stack: TestStack,
  tenant: TestTenant,
  uid: string,
): Promise<CallResult> {
  const call = (method: string, path: string, body?: unknown) =>
    stack.api.call(method, path, { key: tenant.testKey, ...(body === undefined ? {} : { body }) });
  assert.equal((await call('POST', '/v1/dpp/enroll', { chipUid: uid })).status, 201);
  const minted = await call(
    'POST',
    '/v1/dpp/mint',
    mintBody({ chipUid: uid, name: 'Parka', custom_dpp_data: { conformity_url: CONFORMITY_DOC } }),
  );
  assert.equal(minted.status, 201, minted.text);
  return minted;
}

function waitForLog(child: ChildProcess, output: () => string, message: string, ms: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`worker process did not log "${message}" in ${ms} ms`)),
      ms,
    );
    child.stdout!.on('data', () => {
      if (output().includes(`"msg":"${message}"`)) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`worker process exited (${code}) before logging "${message}"`));
    });
  });
}
