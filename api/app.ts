import type { MikroORM } from '@mikro-orm/postgresql';
import Koa from 'koa';
import { userTokenKeysOf } from '../src/accounts/identity/user-token-keys.ts';
import { ENTRY_POINT_ADDRESS } from '../src/adapters/bundler/account-contracts.ts';
import { createContentStore } from '../src/adapters/ipfs/create.ts';
import type { ContentStore } from '../src/adapters/ipfs/store.ts';
import { StripeGateway } from '../src/adapters/payments/stripe-gateway.ts';
import type { WorkflowGateway } from '../src/adapters/temporal/start.ts';
import type { Config } from '../src/platform/config/config.ts';
import type { Logger } from '../src/platform/logging/logger.ts';
import {
  type MetricsSource,
  registerDatabaseMetrics,
} from '../src/platform/observability/metrics-endpoint.ts';
import { PaymasterDeposits } from '../src/platform/observability/paymaster-deposit.ts';
import { SignerBalances } from '../src/platform/observability/signer-balance.ts';
import { chainReadiness } from '../src/platform/runtime/readiness.ts';
import { SecretBox } from '../src/platform/secret-box.ts';
import type { AppContext, AppState } from './context.ts';
import { clientAddress, TrustedProxies } from './middleware/client-address.ts';
import { consoleCookieFor } from './middleware/console-session.ts';
import { httpObservability } from './middleware/http-observability.ts';
import { metricsEndpoint } from './middleware/metrics.ts';
import { oldHostRedirect } from './middleware/old-host-redirect.ts';
import { problemHandler } from './middleware/problem-handler.ts';
import { PostgresBuckets, RateLimiter } from './middleware/rate-limit.ts';
import { requestId } from './middleware/request-id.ts';
import { requestLog } from './middleware/request-log.ts';
import { companyRequestLog } from './middleware/request-log-capture.ts';
import { testPathPrefix } from './middleware/test-path-prefix.ts';
import { buildOpenApiDocument } from './openapi/document.ts';
import { buildRouter, methodNotAllowed } from './router.ts';
import { consoleStatic } from './routes/console/static.ts';
import { docsRouter } from './routes/docs.ts';
import type { ReadinessCheck } from './routes/health.ts';
import { allRoutes } from './routes/index.ts';
import { ipfsRouter } from './routes/ipfs.ts';
import { publicPassportStatic } from './routes/verify/static.ts';

export interface AppDeps {
  config: Config;
  orm: MikroORM;
  logger: Logger;
  /** Extra readiness checks beside the database and the configured chains (Temporal…). */
  readiness?: Record<string, ReadinessCheck>;
  secretBox?: SecretBox;
  payments?: StripeGateway;
  contentStore?: ContentStore;
  workflows?: WorkflowGateway;
  /** Expositions appended to /metrics (npm start: the Temporal SDK runtime's, as the worker is in-process). */
  metricsSources?: MetricsSource[];
}

export function createApp(deps: AppDeps): Koa<AppState, AppContext> {
  // X-Forwarded-* are believed only from TRUSTED_PROXIES (clientAddress); Koa's own proxy mode would take
  // them from any peer.
  const app = new Koa<AppState, AppContext>({ proxy: false });
  app.silent = true;
  const readiness: Record<string, ReadinessCheck> = {
    database: async () => {
      await deps.orm.em.getConnection().execute('select 1');
    },
    ...chainReadiness(deps.config),
    ...deps.readiness,
  };
  // The funded-balance alarm: gauges at /metrics, a warning log line and /readyz `warnings` (never unready).
  const signerBalances = new SignerBalances(deps.config, deps.logger, { orm: deps.orm });
  signerBalances.registerMetrics();
  // The same for the paymaster's deposit at the EntryPoint (sponsored user operations, docs/smart-accounts.md).
  const paymasterDeposits = new PaymasterDeposits(deps.config, ENTRY_POINT_ADDRESS, deps.logger);
  paymasterDeposits.registerMetrics();
  const watched = [signerBalances, paymasterDeposits].filter((watch) => watch.configured);
  const secretBox = deps.secretBox ?? new SecretBox(deps.config.secrets.dataEncryptionKey);
  const payments = deps.payments ?? new StripeGateway(deps.config.payments);
  const routes = allRoutes({
    config: deps.config,
    orm: deps.orm,
    secretBox,
    readiness,
    readinessWarnings:
      watched.length > 0
        ? async () => Object.assign({}, ...(await Promise.all(watched.map((watch) => watch.warnings()))))
        : undefined,
    workflows: deps.workflows,
    payments,
  });
  let openApi: Record<string, unknown> | undefined;
  // One limit for all API processes on this database (issue 24).
  const buckets = new PostgresBuckets(deps.orm, deps.logger);
  const router = buildRouter(routes, {
    orm: deps.orm,
    jsonBodyLimitBytes: deps.config.limits.jsonBodyBytes,
    bodyReadTimeoutMs: deps.config.limits.bodyReadTimeoutMs,
    inputLimits: {
      maxDepth: deps.config.limits.jsonMaxDepth,
      maxObjectKeys: deps.config.limits.jsonMaxObjectKeys,
    },
    rateLimiter: new RateLimiter(deps.config.limits.ratePerMinute, buckets, 'api'),
    publicRateLimiter: new RateLimiter(deps.config.limits.publicRatePerMinute, buckets, 'public'),
    userTokens: userTokenKeysOf(deps.config),
    consoleCookie: consoleCookieFor(deps.config.publicBaseUrl),
  });
  const docs = docsRouter(() => {
    openApi ??= buildOpenApiDocument(routes, deps.config.publicBaseUrl, deps.config.limits);
    return openApi;
  });
  registerDatabaseMetrics(deps.orm);
  app.use(requestId(deps.logger));
  app.use(httpObservability());
  app.use(clientAddress(new TrustedProxies(deps.config.trustedProxies)));
  app.use(requestLog(deps.logger));
  app.use(companyRequestLog(deps.orm, deps.logger, deps.config.requestLog));
  app.use(problemHandler());
  app.use(oldHostRedirect(() => deps.orm.em, deps.config.publicBaseUrl));
  app.use(metricsEndpoint(deps.config.metrics, deps.metricsSources));
  app.use(testPathPrefix());
  app.use(docs.routes());
  app.use(ipfsRouter(deps.contentStore ?? createContentStore(deps.config.ipfs)).routes());
  app.use(publicPassportStatic());
  app.use(consoleStatic());
  app.use(router.routes());
  app.use(methodNotAllowed(router));
  return app;
}
