import type { Client } from '@temporalio/client';
import type { NativeConnection } from '@temporalio/worker';
import { webhookSenderFor } from '../activities/webhooks/webhook-activities.ts';
import { startUsageReporter } from '../src/accounts/billing/usage.ts';
import { startRequestLogPurge } from '../src/accounts/request-log/purge.ts';
import { openEnvironmentAccounts } from '../src/adapters/bundler/environment-accounts.ts';
import type { PassportChains } from '../src/adapters/chain/environment-chains.ts';
import type { ContentStore } from '../src/adapters/ipfs/store.ts';
import { registerSearchAttributes } from '../src/adapters/temporal/register-search-attributes.ts';
import { httpPublicReader } from '../src/lifecycle/backup/push-parts.ts';
import { startBackupPusher } from '../src/lifecycle/backup/pusher.ts';
import { startImportSweep } from '../src/lifecycle/provision/spreadsheet-import-sweep.ts';
import { startRegistryDispatcher } from '../src/lifecycle/registry/dispatcher.ts';
import { claimRequestOf } from '../src/lifecycle/resale/sponsored-claim.ts';
import { startLevelAnchorSweep } from '../src/passport/levels/level-anchor-sweep.ts';
import { type Config, ENVIRONMENTS } from '../src/platform/config/config.ts';
import { startKeyPurge } from '../src/platform/idempotency/purge.ts';
import type { Logger } from '../src/platform/logging/logger.ts';
import type { OpenDatabase } from '../src/platform/runtime/database.ts';
import type { ShutdownStep } from '../src/platform/runtime/shutdown.ts';
import type { SecretBox } from '../src/platform/secret-box.ts';
import { startOutboxDispatcher } from '../src/webhooks/dispatcher.ts';
import { firstAttemptSender } from '../src/webhooks/first-attempts.ts';
import { environmentDeps } from './environment-deps.ts';
import { createWorkers, runWorkers } from './worker.ts';

/**
 * What the worker process does, in production (worker/main.ts) and under `npm start`: search attributes,
 * one worker per environment's task queue, the outbox dispatcher, the backup pusher (a backup provider
 * configured), the purge of expired Idempotency-Keys, the request log's purge (old entries, each company's cap),
 * the sweeps that start the anchors of level versions left pending and the spreadsheet imports left stalled.
 * Returns the steps that stop it, in order.
 */
export async function startWorkerRole(parts: {
  config: Config;
  logger: Logger;
  client: Client;
  /** The client's native connection; the workers poll over it too (the caller closes it). */
  clientConnection: NativeConnection;
  database: OpenDatabase;
  chains: PassportChains;
  contentStore: ContentStore;
  secretBox: SecretBox;
}): Promise<ShutdownStep[]> {
  const { config, logger } = parts;
  await registerSearchAttributes(parts.clientConnection, config.temporal.namespace, logger);
  // Smart accounts (docs/smart-accounts.md): the configured bundler, or a local alto in front of npm start's anvil.
  // Their monitor sends a claim a reorg took back again, signed again with the buyer's re-derived key if need be.
  const accounts = await openEnvironmentAccounts(config, parts.chains, parts.database.orm, {
    logger,
    requestFor: (environment, record) =>
      claimRequestOf(
        {
          em: parts.database.orm.em.fork(),
          reader: parts.chains[environment].reader,
          walletMasterSecret: config.identity.walletMasterSecret,
        },
        record,
      ),
  });
  if (accounts.alto) logger.info({ bundler: accounts.alto.url }, 'alto bundler started for the local chain');
  const environments = environmentDeps({
    ...parts,
    orm: parts.database.orm,
    smartAccounts: accounts.operations,
  });
  const workers = await createWorkers({
    connection: parts.clientConnection,
    namespace: config.temporal.namespace,
    taskQueuePrefix: config.temporal.taskQueuePrefix,
    environments,
  });
  const running = runWorkers(workers);
  const gateway = { client: parts.client, taskQueuePrefix: config.temporal.taskQueuePrefix };
  const dispatcher = startOutboxDispatcher({
    orm: parts.database.orm,
    gateway,
    logger,
    firstAttempts: firstAttemptSender({
      orm: parts.database.orm,
      gateway,
      logger,
      senders: { live: webhookSenderFor(environments.live), test: webhookSenderFor(environments.test) },
    }),
  });
  const registryDispatcher = startRegistryDispatcher({
    orm: parts.database.orm,
    gateway,
    logger,
    environments: ENVIRONMENTS.filter((environment) => config.registry.api[environment]),
  });
  const keyPurge = startKeyPurge({ em: () => parts.database.orm.em.fork(), logger });
  const requestLogPurge = startRequestLogPurge({
    em: () => parts.database.orm.em.fork(),
    logger,
    settings: config.requestLog,
  });
  const levelAnchorSweep = startLevelAnchorSweep({ em: () => parts.database.orm.em.fork(), gateway, logger });
  const importSweep = startImportSweep({ em: () => parts.database.orm.em.fork(), gateway, logger });
  const payments = environments.live.payments;
  const usageReporter = startUsageReporter({
    em: () => parts.database.orm.em.fork(),
    stripeFor: (environment) =>
      payments.isConfigured(environment) ? payments.forEnvironment(environment).stripe : undefined,
    meterEventName: config.payments.meterEventName,
    logger,
  });
  const provider = config.backup.provider;
  const backupPusher = provider
    ? startBackupPusher({
        em: () => parts.database.orm.em.fork(),
        provider,
        read: httpPublicReader(config.publicBaseUrl),
        logger,
        stuckAfterMs: provider.stuckAfterMs,
      })
    : undefined;
  return [
    { name: 'outbox dispatcher', run: () => dispatcher.stop() },
    { name: 'backup pusher', run: async () => backupPusher?.stop() },
    { name: 'registry dispatcher', run: () => registryDispatcher.stop() },
    { name: 'Idempotency-Key purge', run: () => keyPurge.stop() },
    { name: 'request log purge', run: () => requestLogPurge.stop() },
    { name: 'level anchor sweep', run: () => levelAnchorSweep.stop() },
    { name: 'spreadsheet import sweep', run: () => importSweep.stop() },
    { name: 'usage reporter', run: () => usageReporter.stop() },
    {
      name: 'workers',
      run: async () => {
        for (const worker of workers) worker.shutdown();
        await running;
      },
    },
    { name: 'bundler', run: () => accounts.close() },
  ];
}
