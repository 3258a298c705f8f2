import { createApp } from '../../api/app.ts';
import { listen } from '../../api/server.ts';
import { ensureDemoCompany } from '../../src/accounts/companies/demo.ts';
import { openPassportChains } from '../../src/adapters/chain/environment-chains.ts';
import { createContentStore } from '../../src/adapters/ipfs/create.ts';
import { StripeGateway } from '../../src/adapters/payments/stripe-gateway.ts';
import { connectClient } from '../../src/adapters/temporal/connection.ts';
import { installTemporalRuntime } from '../../src/adapters/temporal/runtime.ts';
import { type Config, ConfigError, loadConfig } from '../../src/platform/config/config.ts';
import { createLogger, type Logger } from '../../src/platform/logging/logger.ts';
import { httpMetricsSource, type MetricsSource } from '../../src/platform/observability/metrics-endpoint.ts';
import { installTracing } from '../../src/platform/observability/tracing.ts';
import { openDatabase } from '../../src/platform/runtime/database.ts';
import { freePort } from '../../src/platform/runtime/ports.ts';
import { chainCheck, temporalCheck } from '../../src/platform/runtime/readiness.ts';
import { onShutdown, type ShutdownStep } from '../../src/platform/runtime/shutdown.ts';
import { SecretBox } from '../../src/platform/secret-box.ts';
import { startWorkerRole } from '../../worker/worker-role.ts';
import { ensureConsoleBuilt } from '../console-build.ts';
import { startDevMail } from './mail.ts';
import { startDevRegistry } from './registry.ts';
import { startDevStripe } from './stripe.ts';
import { noteRunningService } from './tap.ts';
import { startDevTemporal } from './temporal.ts';

/** `npm start`: the whole service on embedded defaults, in one process. */
export async function launch(): Promise<void> {
  const started = Date.now();
  let config: Config;
  try {
    // npm start is development: its defaults include the development conveniences (src/platform/config/config.ts).
    config = loadConfig(process.env, { developmentDefaults: true });
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(2);
    }
    throw error;
  }
  const logger = createLogger(config.logLevel, { role: 'dev' });
  // API and worker in one process: the SDK core's metrics (task latencies) join the API's /metrics.
  const coreMetricsPort = await freePort();
  installTemporalRuntime(logger, { prometheusBindAddress: `127.0.0.1:${coreMetricsPort}` });
  const tracing = installTracing(config.tracing, { role: 'dev' });
  // What has started, last first: stopped on Ctrl-C, or at once if a later part fails to start (so a failed
  // start leaves no stripe-mock, Temporal server or anvil behind).
  const startedSteps: ShutdownStep[] = [];
  const startedPart = <T>(name: string, part: T, stop: (part: T) => Promise<void>): T => {
    startedSteps.unshift({ name, run: () => stop(part) });
    return part;
  };
  if (tracing) startedSteps.push({ name: 'trace export', run: () => tracing.shutdown() });
  let running: Awaited<ReturnType<typeof startParts>>;
  try {
    running = await startParts(config, logger, startedPart, [
      httpMetricsSource(`http://127.0.0.1:${coreMetricsPort}/metrics`),
    ]);
  } catch (error) {
    for (const step of startedSteps) await step.run().catch(() => {});
    throw error;
  }
  // The CLI's tap URLs name this address (whatever PORT this start was given).
  const forget = await noteRunningService(config.publicBaseUrl);
  process.once('exit', forget);
  startedSteps.unshift({ name: 'running-service note', run: async () => forget() });
  onShutdown(logger, startedSteps);
  printBanner({ ...running, started });
}

type StartedPart = <T>(name: string, part: T, stop: (part: T) => Promise<void>) => T;

async function startParts(
  initial: Config,
  logger: Logger,
  startedPart: StartedPart,
  metricsSources: MetricsSource[],
) {
  // The web console is built (when console/ changed; about 2 s) while the other parts start.
  const consoleBuild = ensureConsoleBuilt((line) => logger.info(line)).then(
    () => undefined,
    (error: Error) => `not built: ${error.message}`,
  );
  // Started side by side (the first start builds stripe-mock meanwhile); only the chains wait for the database,
  // where their transaction manager keeps the chain transactions.
  const databaseStarted = openDatabase(initial, logger).then((d) =>
    startedPart('database', d, (p) => p.close()),
  );
  const [stripe, mail, registry, database, chains, temporal] = await allStarted([
    startDevStripe(initial, logger).then((s) => startedPart('stripe-mock', s, (p) => p.stop())),
    startDevMail(initial, logger).then((m) => startedPart('SMTP receiver', m, (p) => p.stop())),
    startDevRegistry(initial, logger).then((r) => startedPart('registry emulator', r, (p) => p.stop())),
    databaseStarted,
    databaseStarted
      .then((d) => openPassportChains(initial, { dataDir: initial.chain.dataDir, orm: d.orm }))
      .then((c) => startedPart('chains', c, (p) => p.close())),
    startDevTemporal(initial, logger).then((t) => startedPart('Temporal server', t, (p) => p.stop())),
  ] as const);
  const config: Config = {
    ...initial,
    payments: stripe.config.payments,
    identity: mail.config.identity,
    registry: registry.config.registry,
  };
  const secretBox = new SecretBox(config.secrets.dataEncryptionKey);
  if (secretBox.usesDevelopmentKey)
    logger.warn('DATA_ENCRYPTION_KEY is not set: chip keys are sealed with a development key');
  const contentStore = createContentStore(config.ipfs);
  const { client, connection } = startedPart(
    'Temporal client connection',
    await connectClient(config.temporal, temporal.address),
    (c) => c.connection.close(),
  );
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
  for (const step of [...workerRole].reverse()) startedPart(step.name, step, (s) => s.run());

  const demo = await ensureDemoCompany(database.orm.em);
  const consoleProblem = await consoleBuild;
  const app = createApp({
    config,
    orm: database.orm,
    logger,
    secretBox,
    contentStore,
    payments: new StripeGateway(config.payments),
    workflows: { client, taskQueuePrefix: config.temporal.taskQueuePrefix },
    metricsSources,
    readiness: {
      temporal: temporalCheck(client),
      ...(chains.anvil ? { 'chain:local': chainCheck({ rpcUrls: [chains.anvil.rpcUrl] }) } : {}),
    },
  });
  const http = await listen(app, config.host, config.port, {
    bodyReadTimeoutMs: config.limits.bodyReadTimeoutMs,
  });
  startedPart('HTTP server', http, (h) => h.close(config.shutdownGraceMs));
  return {
    config,
    database: database.location,
    temporal,
    chainRpc: chains.anvil?.rpcUrl,
    stripe: stripe.mock,
    mailInbox: mail.inbox,
    registry: registry.emulator?.url,
    demo,
    consoleProblem,
  };
}

/**
 * Like Promise.all, but waits for every part to settle before failing, so a part that started after another
 * failed is still registered to be stopped (a failed start leaves nothing running).
 */
async function allStarted<T extends readonly unknown[]>(
  parts: { [K in keyof T]: Promise<T[K]> },
): Promise<T> {
  const settled = await Promise.allSettled(parts);
  const failed = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
  if (failed) throw failed.reason;
  return settled.map((s) => (s as PromiseFulfilledResult<unknown>).value) as unknown as T;
}

function printBanner(info: {
  config: Config;
  started: number;
  database: string;
  temporal: Awaited<ReturnType<typeof startDevTemporal>>;
  chainRpc: string | undefined;
  stripe: { url: string; webhookSecret: string } | undefined;
  mailInbox: string | undefined;
  registry: string | undefined;
  demo: { key: string } | undefined;
  consoleProblem: string | undefined;
}): void {
  const base = info.config.publicBaseUrl;
  const lines = [
    '',
    `DPP service is up (${((Date.now() - info.started) / 1000).toFixed(1)} s)`,
    `  API        ${base}   (docs ${base}/docs, OpenAPI ${base}/openapi.json)`,
    info.consoleProblem
      ? `  Console    ${base}/console  ${info.consoleProblem}`
      : `  Console    ${base}/console   (sign up, sign in, Settings > Developers: API keys)`,
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
    info.stripe
      ? `  Stripe     stripe-mock ${info.stripe.url} (test environment; sign webhook events with ${info.stripe.webhookSecret})`
      : '  Stripe     configured keys',
    info.mailInbox
      ? `  Mail       local SMTP receiver; messages (confirmation links) in ${info.mailInbox}/*.txt (as sent: *.eml)`
      : `  Mail       SMTP_URL`,
    info.registry
      ? `  Registry   EU DPP registry emulator ${info.registry} (test environment; state: ${info.registry}/_admin/state)`
      : '  Registry   EU DPP registry at REGISTRY_API_URL_*',
    ...(info.config.secrets.developmentValues.length > 0
      ? [
          `  Secrets    development values for ${info.config.secrets.developmentValues.join(', ')} (fine here; a live`,
          '             configuration refuses to start without them)',
        ]
      : []),
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
