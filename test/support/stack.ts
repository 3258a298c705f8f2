import { Client } from '@temporalio/client';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker, type WorkflowBundleWithSourceMap } from '@temporalio/worker';
import { parseEther } from 'ethers';
import { createActivities, type EnvironmentDeps } from '../../activities/index.ts';
import { webhookSenderFor } from '../../activities/webhooks/webhook-activities.ts';
import { type RegistryEmulator, startRegistryEmulator } from '../../scripts/dev/registry-emulator.ts';
import { reorgRecordReconciler } from '../../src/adapters/chain/reorg-records.ts';
import { EmbeddedContentStore } from '../../src/adapters/ipfs/store.ts';
import { StripeGateway } from '../../src/adapters/payments/stripe-gateway.ts';
import { HttpRegistry } from '../../src/adapters/registry/http-registry.ts';
import { clientInterceptors } from '../../src/adapters/temporal/connection.ts';
import { startRegistryDispatcher } from '../../src/lifecycle/registry/dispatcher.ts';
import { createLogger } from '../../src/platform/logging/logger.ts';
import { currentTracing } from '../../src/platform/observability/tracing.ts';
import { workerObservability } from '../../src/platform/observability/worker-observability.ts';
import { SecretBox } from '../../src/platform/secret-box.ts';
import { taskQueueFor } from '../../src/processes/task-queues.ts';
import { type OutboxDispatcher, startOutboxDispatcher } from '../../src/webhooks/dispatcher.ts';
import { firstAttemptSender } from '../../src/webhooks/first-attempts.ts';
import { workerTuning } from '../../worker/worker.ts';
import { startTestChain, type TestChain } from './anvil.ts';
import { startTestApi, type TestApi } from './api.ts';
import { workflowBundle } from './prebuilt.ts';
import { sponsoredOperationsOf, startTestAccounts, type TestAccounts } from './smart-accounts.ts';
import { createTestWorkflowEnvironment, type TestServerMode } from './temporal.ts';

export const TEST_DEPOSIT = '0.001';

export interface TestStack {
  api: TestApi;
  chain: TestChain;
  /** EntryPoint, factory, our paymaster and a real alto bundler (with `smartAccounts: true`). */
  accounts: TestAccounts | undefined;
  temporal: TestWorkflowEnvironment;
  deps: EnvironmentDeps;
  /** The outbox dispatcher of the worker process (off with `dispatcher: false`). */
  dispatcher: OutboxDispatcher | undefined;
  /** The EU DPP registry emulator and its dispatcher (with `registry: true`). */
  registry: RegistryEmulator | undefined;
  /** Starts a worker for the test environment's task queue (one is started by default). */
  startWorker(options?: {
    maxCachedWorkflows?: number;
    hooks?: EnvironmentDeps['hooks'];
  }): Promise<RunningWorker>;
  close(): Promise<void>;
}

export interface RunningWorker {
  worker: Worker;
  stop(): Promise<void>;
}

/** The production workflow code, bundled once per test run (test/support/prebuilt.ts). */
export function productionWorkflowBundle(): Promise<WorkflowBundleWithSourceMap> {
  return workflowBundle('production');
}

/**
 * The whole service as a client sees it: the HTTP API on a fresh database, a worker running the real
 * workflows and activities, Temporal (the official dev server in real time by default), anvil with the
 * contract, an IPFS store.
 */
export async function startTestStack(
  options: {
    startWorker?: boolean;
    dispatcher?: boolean;
    /** 'time-skipping' for suites that wait out timers, retry backoffs or heartbeat timeouts. */
    temporal?: TestServerMode;
    /**
     * The API's Temporal client: by default the environment's own (on the time-skipping server, an API call
     * waiting for a workflow lets time pass at once); 'native' is what production runs (connectClient).
     */
    apiClient?: 'environment' | 'native';
    /** How long the mint endpoint waits for its workflow before answering 202 (default 20 s). */
    mintWaitMs?: number;
    /** More configuration of the API (environment variables). */
    apiEnv?: Record<string, string>;
    /** The chain to run on (default: a fresh anvil mining each transaction at once); close() stops it. */
    chain?: TestChain;
    /** Start the registry emulator (scripts/dev/registry-emulator.ts) and the registry dispatcher. */
    registry?: boolean;
    /**
     * true: EntryPoint, factory, paymaster and alto, as `npm start` runs them (buyers' claims are sponsored user
     * operations). Off by default to spare every other file the bundler's start: claims are then relayed.
     */
    smartAccounts?: boolean;
  } = {},
): Promise<TestStack> {
  const chain = options.chain ?? (await startTestChain());
  const accounts = options.smartAccounts === true ? await startTestAccounts(chain) : undefined;
  const temporal = await createTestWorkflowEnvironment(options.temporal ?? 'dev-server').catch(
    async (error) => {
      await accounts?.stop(); // a failed start leaves no bundler behind
      throw error;
    },
  );
  const mintWait = String(options.mintWaitMs ?? 20_000);
  const api = await startTestApi(
    { MINT_DEPOSIT: TEST_DEPOSIT, MINT_WAIT_MS: mintWait, ...options.apiEnv },
    (config) => ({
      workflows: {
        client:
          options.apiClient === 'native'
            ? new Client({ connection: temporal.nativeConnection, interceptors: clientInterceptors() })
            : temporal.client,
        taskQueuePrefix: config.temporal.taskQueuePrefix,
      },
    }),
  );
  // The worker's writes go through the transaction manager on the API's database, as in production.
  const chainOfWorker = chain.connect(chain.platform.privateKey, {
    transactions: { orm: api.db.orm, reconcile: reorgRecordReconciler(api.db.orm) },
  });
  const sponsored =
    accounts &&
    sponsoredOperationsOf(accounts, {
      orm: api.db.orm,
      reader: chainOfWorker.reader,
      walletMasterSecret: api.config.identity.walletMasterSecret,
    });
  const deps: EnvironmentDeps = {
    environment: 'test',
    orm: api.db.orm,
    logger: createLogger('silent'),
    secretBox: new SecretBox(api.config.secrets.dataEncryptionKey),
    contentStore: new EmbeddedContentStore(api.config.ipfs.storeDir),
    chain: chainOfWorker,
    depositWei: parseEther(TEST_DEPOSIT),
    publicBaseUrl: api.config.publicBaseUrl,
    custodyMasterSecret: api.config.secrets.custodyMasterSecret,
    payments: new StripeGateway(api.config.payments),
    ...(sponsored && {
      smartAccounts: {
        operations: sponsored.operations,
        walletMasterSecret: api.config.identity.walletMasterSecret,
      },
    }),
  };
  const registry = options.registry
    ? await startRegistryEmulator({ token: 'registry-test-token' })
    : undefined;
  if (registry) {
    deps.registry = {
      port: new HttpRegistry(registry.url, registry.token),
      serviceProviderId: 'dpp-service-test',
      backupCopyUrlTemplate: 'https://backup.example.test{path}',
    };
  }
  const workers: RunningWorker[] = [];
  const startWorker: TestStack['startWorker'] = async (workerOptions = {}) => {
    const worker = await Worker.create({
      connection: temporal.nativeConnection,
      namespace: temporal.namespace ?? 'default',
      taskQueue: taskQueueFor(api.config.temporal.taskQueuePrefix, 'test'),
      workflowBundle: await productionWorkflowBundle(),
      activities: createActivities({ ...deps, hooks: workerOptions.hooks }),
      ...workerObservability(currentTracing()),
      ...workerTuning,
      ...(workerOptions.maxCachedWorkflows === undefined
        ? {}
        : { maxCachedWorkflows: workerOptions.maxCachedWorkflows }),
    });
    const running = worker.run();
    const handle = {
      worker,
      stop: async () => {
        if (worker.getState() === 'RUNNING') worker.shutdown();
        await running;
      },
    };
    workers.push(handle);
    return handle;
  };
  if (options.startWorker !== false) await startWorker();
  const dispatcher =
    options.dispatcher === false
      ? undefined
      : startOutboxDispatcher({
          orm: api.db.orm,
          gateway: { client: temporal.client, taskQueuePrefix: api.config.temporal.taskQueuePrefix },
          logger: deps.logger,
          // As the worker process does: first attempts sent by the dispatcher, retries by workflows.
          firstAttempts: firstAttemptSender({
            orm: api.db.orm,
            gateway: { client: temporal.client, taskQueuePrefix: api.config.temporal.taskQueuePrefix },
            logger: deps.logger,
            senders: { test: webhookSenderFor(deps) },
          }),
        });
  const registryDispatcher = registry
    ? startRegistryDispatcher({
        orm: api.db.orm,
        gateway: { client: temporal.client, taskQueuePrefix: api.config.temporal.taskQueuePrefix },
        logger: deps.logger,
        environments: ['test'],
        intervalMs: 200,
      })
    : undefined;
  return {
    api,
    chain,
    accounts,
    temporal,
    deps,
    dispatcher,
    registry,
    startWorker,
    async close() {
      await registryDispatcher?.stop();
      await dispatcher?.stop();
      for (const worker of workers) await worker.stop().catch(() => {});
      await sponsored?.monitor.stop();
      await api.close();
      await temporal.teardown();
      await registry?.stop();
      await accounts?.stop();
      await chain.stop();
    },
  };
}
