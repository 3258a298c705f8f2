import { createApp } from '../../api/app.ts';
import { listen } from '../../api/server.ts';
import { ensureDemoCompany } from '../../src/accounts/demo.ts';
import { openPassportChains } from '../../src/chain/environment-chains.ts';
import { ConfigError, loadConfig } from '../../src/config/config.ts';
import { SecretBox } from '../../src/crypto/secret-box.ts';
import { startDevTemporal } from '../../src/dev/temporal.ts';
import { createContentStore } from '../../src/ipfs/create.ts';
import { createLogger } from '../../src/logging/logger.ts';
import { openDatabase } from '../../src/runtime/database.ts';
import { onShutdown } from '../../src/runtime/shutdown.ts';
import { connectClient } from '../../src/temporal/connection.ts';
import { installTemporalRuntime } from '../../src/temporal/runtime.ts';
import { startWorkerRole } from '../../worker/worker-role.ts';

/** `npm start`: the whole service on embedded defaults, in one process. */
export async function launch(): Promise<void> {
  const started = Date.now();
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(2);
    }
    throw error;
  }
  const logger = createLogger(config.logLevel, { role: 'dev' });
  installTemporalRuntime(logger);
  const secretBox = new SecretBox(config.secrets.dataEncryptionKey);
  if (secretBox.usesDevelopmentKey)
    logger.warn('DATA_ENCRYPTION_KEY is not set: chip keys are sealed with a development key');

  const database = await openDatabase(config, logger);
  const chains = await openPassportChains(config, { dataDir: config.chain.dataDir });
  const contentStore = createContentStore(config.ipfs);
  const temporal = await startDevTemporal(config, logger);
  const { client, connection } = await connectClient(config.temporal, temporal.address);
  const workerRole = await startWorkerRole({
    config,
    logger,
    client,
    clientConnection: connection,
    database,
    chains,
    contentStore,
    secretBox,
  });

  const demo = await ensureDemoCompany(database.orm.em);
  const app = createApp({
    config,
    orm: database.orm,
    logger,
    secretBox,
    contentStore,
    workflows: { client, taskQueuePrefix: config.temporal.taskQueuePrefix },
  });
  const http = await listen(app, config.host, config.port, {
    bodyReadTimeoutMs: config.limits.bodyReadTimeoutMs,
  });
  onShutdown(logger, [
    { name: 'HTTP server', run: () => http.close(config.shutdownGraceMs) },
    ...workerRole,
    { name: 'Temporal client connection', run: () => connection.close() },
    { name: 'Temporal server', run: () => temporal.stop() },
    { name: 'chains', run: () => chains.close() },
    { name: 'database', run: () => database.close() },
  ]);
  printBanner({
    config,
    started,
    database: database.location,
    temporal,
    chainRpc: chains.anvil?.rpcUrl,
    demo,
  });
}

function printBanner(info: {
  config: ReturnType<typeof loadConfig>;
  started: number;
  database: string;
  temporal: Awaited<ReturnType<typeof startDevTemporal>>;
  chainRpc: string | undefined;
  demo: { key: string } | undefined;
}): void {
  const base = info.config.publicBaseUrl;
  const lines = [
    '',
    `DPP service is up (${((Date.now() - info.started) / 1000).toFixed(1)} s)`,
    `  API        ${base}   (docs ${base}/docs, OpenAPI ${base}/openapi.json)`,
    `  PostgreSQL ${info.database}`,
    info.temporal.kind === 'dev-server'
      ? `  Temporal   ${info.temporal.address} (official dev server, data in ${info.config.temporal.devDbFile})`
      : `  Temporal   ${info.temporal.address} (TEMPORAL_ADDRESS)`,
    ...(info.temporal.uiUrl
      ? [
          `  Temporal UI ${info.temporal.uiUrl}   (workflows: ${info.temporal.uiUrl}/namespaces/${info.config.temporal.namespace}/workflows)`,
        ]
      : []),
    `  Chain      ${info.chainRpc ? `anvil ${info.chainRpc}` : 'configured RPC endpoints'}`,
    `  IPFS       ${info.config.ipfs.apiUrl ?? `embedded store in ${info.config.ipfs.storeDir}, served at ${base}/ipfs/<cid>`}`,
  ];
  if (info.demo) {
    lines.push(
      '',
      'Created "Demo Company" with a test API key (shown only now):',
      `  ${info.demo.key}`,
      '',
      'Try it:',
      `  curl -s -H 'x-service-env: test' -H 'Authorization: Bearer ${info.demo.key}' ${base}/v1/auth/api-keys`,
    );
  } else {
    lines.push('', 'Need a key? npm run cli -- api-key:create --company <companyId> --env test');
  }
  lines.push('', 'Ctrl-C stops everything.', '');
  process.stdout.write(lines.join('\n'));
}
