import { type BackupConfig, backupConfig, backupSettingsProblem } from './backup-env.ts';
import { type CredentialsConfig, credentialsConfig } from './credentials-env.ts';
import { type EnvSettings, envSchema } from './env.ts';
import { type PageConfig, pageConfig } from './page-env.ts';
import { type PaymentsConfig, paymentsConfig } from './payments-env.ts';
import { type RegistryConfig, registryConfig } from './registry-env.ts';
import { type RequestLogConfig, requestLogConfig } from './request-log-env.ts';

export const ENVIRONMENTS = ['live', 'test'] as const;
export type Environment = (typeof ENVIRONMENTS)[number];

export interface ChainSettings {
  /** One JSON-RPC URL, or several separated by commas: later ones take over when the current one fails. */
  rpcUrl: string | undefined;
  contractAddress: string | undefined;
  privateKey: string | undefined;
  /** Below this balance (decimal chain currency) the platform signer is reported low (CHAIN_SIGNER_MIN_BALANCE_*). */
  signerMinBalance: string;
  /** A block explorer's transaction page with `{tx}` for the hash (CHAIN_EXPLORER_URL_*); none: hashes are text. */
  explorerTxUrl: string | undefined;
  /** Smart accounts (docs/smart-accounts.md); all three set: buyers' claims go through this bundler. */
  accounts: {
    bundlerUrl: string | undefined;
    paymasterAddress: string | undefined;
    /** Signs what the paymaster sponsors; from the secret store. */
    sponsorPrivateKey: string | undefined;
    /** Below this deposit at the EntryPoint (decimal chain currency) the paymaster is reported low. */
    paymasterMinDeposit: string;
  };
}

export interface Config {
  port: number;
  host: string;
  publicBaseUrl: string;
  logLevel: EnvSettings['LOG_LEVEL'];
  database: { url: string | undefined; poolMax: number; embeddedDir: string; embeddedPort: number };
  limits: {
    jsonBodyBytes: number;
    /** Deepest nesting of objects and arrays in a JSON body (the body itself is level 1). */
    jsonMaxDepth: number;
    /** Most keys one JSON object of a request may have. */
    jsonMaxObjectKeys: number;
    /** How long reading a request body may take before the request is answered 408. */
    bodyReadTimeoutMs: number;
    ratePerMinute: number;
    /**
     * Per client address on the public pages (GS1 resolver, verification page, DID documents): consumers'
     * phones often share one address behind carrier NAT, so this is higher than the API's.
     */
    publicRatePerMinute: number;
  };
  /** Peers whose X-Forwarded-For is believed (IPs and CIDR blocks); empty: the socket's peer is the client. */
  trustedProxies: string[];
  shutdownGraceMs: number;
  /** Who may read /metrics and where the worker serves it (src/platform/observability/metrics-endpoint.ts). */
  metrics: {
    /** Bearer token for /metrics; unset: only loopback clients, and never while the live environment is configured. */
    token: string | undefined;
    /** The worker process's /metrics port (the API serves /metrics on its own port). */
    workerPort: number | undefined;
    /** Whether the live environment is configured: /metrics then needs the token. */
    requireToken: boolean;
  };
  /** OpenTelemetry traces, exported over OTLP/HTTP when an endpoint is set. */
  tracing: { otlpEndpoint: string | undefined; serviceName: string };
  temporal: {
    address: string | undefined;
    namespace: string;
    taskQueuePrefix: string;
    apiKey: string | undefined;
    /** `npm start` without TEMPORAL_ADDRESS: the dev server's gRPC port (UI on port + 1000) and SQLite file. */
    devPort: number;
    devDbFile: string;
    tls: boolean;
    tlsCertPath: string | undefined;
    tlsKeyPath: string | undefined;
  };
  chain: Record<Environment, ChainSettings> & {
    confirmations: number;
    /** Most passports minted together in one `mintBatch` transaction (1: no batching). */
    mintBatchMax: number;
    /** A transaction known to the node but unmined this long is re-signed with higher fees (same nonce). */
    stuckAfterMs: number;
    /** The most the signer offers per gas, in gwei (fee bumps stop there). */
    maxFeeGwei: number;
    /** Deploy the contract where CHAIN_RPC_URL_* has no CONTRACT_ADDRESS_* (development chains only). */
    autoDeploy: boolean;
    /** Local anvil state and recorded deployments. */
    dataDir: string;
    /** Sponsored user operations a company, and a person, may have per rolling day. */
    sponsorBudget: { companyPerDay: number; personPerDay: number };
  };
  mint: { deposit: string; waitMs: number };
  secrets: {
    /** Encrypts secrets at rest (chip keys). Unset: a fixed development key, refused in production use. */
    dataEncryptionKey: Buffer | undefined;
    /** Derives custodial wallets (companies, invisible user wallets). */
    custodyMasterSecret: string | undefined;
    /** DEVELOPMENT_SECRETS left unset (development values in use): shown in npm start's banner. */
    developmentValues: string[];
  };
  identity: {
    /** Signs user tokens (Ed25519 seed); unset: derived from DATA_ENCRYPTION_KEY. */
    userTokenKey: Buffer | undefined;
    /** Derives users' invisible wallets; unset: a development constant (never in live use). */
    walletMasterSecret: string | undefined;
    /** Outgoing mail; unset: mail cannot be sent (registration answers 503), except under npm start. */
    smtpUrl: string | undefined;
    mailFrom: string;
    /** npm start without SMTP_URL: where its local SMTP receiver writes what it receives. */
    devMailDir: string;
    /** WebAuthn relying party: the apex domain passkeys are bound to (default: PUBLIC_BASE_URL's host). */
    passkeyRpId: string;
    passkeyRpName: string;
    /** Where a company publishes a domain's verification token; `{domain}` is replaced. */
    ssoDomainProofUrl: string;
    /** SSO may reach http and non-public addresses (local identity providers in development and tests). */
    ssoAllowPrivateUrls: boolean;
  };
  ipfs: { apiUrl: string | undefined; storeDir: string };
  /**
   * Test-environment webhook endpoints may target loopback and private addresses (local receivers): a
   * development convenience, see `webhookPrivateUrlsInTest`.
   */
  webhooks: { allowPrivateUrlsInTest: boolean };
  /** Stripe per environment (src/platform/config/payments-env.ts). */
  payments: PaymentsConfig;
  /** Issuer keys and chain ids of the public passport's credentials (src/platform/config/credentials-env.ts). */
  credentials: CredentialsConfig;
  /** The backup provider our versions are pushed to (src/platform/config/backup-env.ts, docs/backup.md). */
  backup: BackupConfig;
  /** The EU DPP registry and the backup copy link its registrations carry (src/platform/config/registry-env.ts). */
  registry: RegistryConfig;
  /** Developers › Logs: what is logged and how long it is kept (src/platform/config/request-log-env.ts). */
  requestLog: RequestLogConfig;
  /** The consumer verification page (VERIFY_IMAGE_HOSTS). */
  page: PageConfig;
}

export class ConfigError extends Error {
  readonly variables: string[];
  constructor(problems: { variable: string; message: string }[]) {
    super(
      `Invalid configuration:\n${problems.map((p) => `  ${p.variable}: ${p.message}`).join('\n')}\n` +
        'See the configuration reference in docs/configuration.md.',
    );
    this.name = 'ConfigError';
    this.variables = problems.map((p) => p.variable);
  }
}

export interface LoadOptions {
  /**
   * Development defaults: `npm start` (scripts/dev/launcher.ts) and the test suite (test/support/api.ts) load
   * the configuration with this on; every other entry point (api/main.ts, worker/main.ts, the CLI, containers)
   * with it off. It changes only defaults of conveniences that are unsafe in a deployment (today:
   * WEBHOOK_ALLOW_PRIVATE_URLS_IN_TEST), never an explicitly set variable, and never while the live environment
   * is configured.
   */
  developmentDefaults?: boolean;
}

/**
 * Whether the live environment is configured, and by what: any `*_LIVE` setting (chain RPC, contract, signer,
 * Stripe keys, issuer key, chain id) or NODE_ENV=production. Undefined when it is not.
 */
export function liveEnvironmentConfiguredBy(env: NodeJS.ProcessEnv): string | undefined {
  if (env.NODE_ENV === 'production') return 'NODE_ENV=production';
  return Object.keys(envSchema.shape)
    .filter((name) => name.endsWith('_LIVE'))
    .find((name) => env[name] !== undefined && env[name] !== '');
}

/**
 * WEBHOOK_ALLOW_PRIVATE_URLS_IN_TEST: whether test-environment webhooks may target loopback, private and
 * link-local addresses. Anyone holding a test key can point a webhook anywhere and read the start of each
 * answer through the deliveries API, so this is a development convenience only: unset, it is on with
 * development defaults and off otherwise; it is always off while the live environment is configured, and
 * setting it true there is refused.
 */
function webhookPrivateUrlsInTest(
  explicit: boolean | undefined,
  env: NodeJS.ProcessEnv,
  options: LoadOptions,
): boolean {
  const live = liveEnvironmentConfiguredBy(env);
  if (live !== undefined) {
    if (explicit === true) {
      throw new ConfigError([
        {
          variable: 'WEBHOOK_ALLOW_PRIVATE_URLS_IN_TEST',
          message:
            `must not be true while the live environment is configured (${live}): test webhooks could then ` +
            'read internal services of a deployment',
        },
      ]);
    }
    return false;
  }
  return explicit ?? options.developmentDefaults === true;
}

/**
 * The secrets that fall back to development values (constants in the source) when unset: fine for `npm start`
 * and the test environment, refused whenever the live environment is configured.
 */
export const DEVELOPMENT_SECRETS = [
  'DATA_ENCRYPTION_KEY',
  'USER_TOKEN_KEY',
  'WALLET_MASTER_SECRET',
  'CUSTODY_MASTER_SECRET',
] as const;

export function unsetSecrets(
  settings: Partial<Record<(typeof DEVELOPMENT_SECRETS)[number], unknown>>,
): string[] {
  return DEVELOPMENT_SECRETS.filter((name) => settings[name] === undefined);
}

/** Reads and validates the environment; throws ConfigError naming every bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, options: LoadOptions = {}): Config {
  const present = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = envSchema.safeParse(present);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((issue) => {
        const variable = String(issue.path[0] ?? '(environment)');
        const got = present[variable];
        return { variable, message: `${issue.message}${got === undefined ? '' : ` (got "${got}")`}` };
      }),
    );
  }
  const e = parsed.data;
  const backupProblem = backupSettingsProblem(e);
  if (backupProblem) throw new ConfigError([backupProblem]);
  const live = liveEnvironmentConfiguredBy(env);
  const missingSecrets = unsetSecrets(e);
  if (live !== undefined && missingSecrets.length > 0) {
    throw new ConfigError(
      missingSecrets.map((variable) => ({
        variable,
        message:
          `must be set while the live environment is configured (${live}): without it the service would use a ` +
          'development value printed in its source, and anyone could forge tokens or derive wallet keys',
      })),
    );
  }
  if (live !== undefined && e.SSO_ALLOW_PRIVATE_URLS) {
    throw new ConfigError([
      {
        variable: 'SSO_ALLOW_PRIVATE_URLS',
        message:
          `must not be true while the live environment is configured (${live}): a company's SSO settings could ` +
          'then reach internal services of the deployment',
      },
    ]);
  }
  if (Boolean(e.TEMPORAL_TLS_CERT_PATH) !== Boolean(e.TEMPORAL_TLS_KEY_PATH)) {
    throw new ConfigError([
      {
        variable: e.TEMPORAL_TLS_CERT_PATH ? 'TEMPORAL_TLS_KEY_PATH' : 'TEMPORAL_TLS_CERT_PATH',
        message: 'TEMPORAL_TLS_CERT_PATH and TEMPORAL_TLS_KEY_PATH must be set together (mTLS)',
      },
    ]);
  }
  return {
    port: e.PORT,
    host: e.HOST,
    publicBaseUrl: (e.PUBLIC_BASE_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, ''),
    logLevel: e.LOG_LEVEL,
    database: {
      url: e.DATABASE_URL,
      poolMax: e.DATABASE_POOL_MAX,
      embeddedDir: e.EMBEDDED_PG_DIR,
      embeddedPort: e.EMBEDDED_PG_PORT,
    },
    limits: {
      jsonBodyBytes: e.JSON_BODY_LIMIT_BYTES,
      jsonMaxDepth: e.JSON_MAX_DEPTH,
      jsonMaxObjectKeys: e.JSON_MAX_OBJECT_KEYS,
      bodyReadTimeoutMs: e.BODY_READ_TIMEOUT_MS,
      ratePerMinute: e.RATE_LIMIT_PER_MINUTE,
      publicRatePerMinute: e.PUBLIC_RATE_LIMIT_PER_MINUTE,
    },
    trustedProxies: e.TRUSTED_PROXIES,
    shutdownGraceMs: e.SHUTDOWN_GRACE_MS,
    metrics: {
      token: e.METRICS_TOKEN,
      workerPort: e.METRICS_PORT,
      requireToken: live !== undefined,
    },
    tracing: { otlpEndpoint: e.OTEL_EXPORTER_OTLP_ENDPOINT, serviceName: e.OTEL_SERVICE_NAME },
    temporal: {
      address: e.TEMPORAL_ADDRESS,
      namespace: e.TEMPORAL_NAMESPACE,
      taskQueuePrefix: e.TEMPORAL_TASK_QUEUE_PREFIX,
      apiKey: e.TEMPORAL_API_KEY,
      devPort: e.TEMPORAL_DEV_PORT,
      devDbFile: e.TEMPORAL_DEV_DB_FILE,
      tls: e.TEMPORAL_TLS || Boolean(e.TEMPORAL_API_KEY) || Boolean(e.TEMPORAL_TLS_CERT_PATH),
      tlsCertPath: e.TEMPORAL_TLS_CERT_PATH,
      tlsKeyPath: e.TEMPORAL_TLS_KEY_PATH,
    },
    chain: {
      live: {
        rpcUrl: e.CHAIN_RPC_URL_LIVE,
        contractAddress: e.CONTRACT_ADDRESS_LIVE,
        privateKey: e.CHAIN_PRIVATE_KEY_LIVE,
        signerMinBalance: e.CHAIN_SIGNER_MIN_BALANCE_LIVE,
        explorerTxUrl: e.CHAIN_EXPLORER_URL_LIVE,
        accounts: {
          bundlerUrl: e.BUNDLER_URL_LIVE,
          paymasterAddress: e.PAYMASTER_ADDRESS_LIVE,
          sponsorPrivateKey: e.SPONSOR_PRIVATE_KEY_LIVE,
          paymasterMinDeposit: e.PAYMASTER_MIN_DEPOSIT_LIVE,
        },
      },
      test: {
        rpcUrl: e.CHAIN_RPC_URL_TEST,
        contractAddress: e.CONTRACT_ADDRESS_TEST,
        privateKey: e.CHAIN_PRIVATE_KEY_TEST,
        signerMinBalance: e.CHAIN_SIGNER_MIN_BALANCE_TEST,
        explorerTxUrl: e.CHAIN_EXPLORER_URL_TEST,
        accounts: {
          bundlerUrl: e.BUNDLER_URL_TEST,
          paymasterAddress: e.PAYMASTER_ADDRESS_TEST,
          sponsorPrivateKey: e.SPONSOR_PRIVATE_KEY_TEST,
          paymasterMinDeposit: e.PAYMASTER_MIN_DEPOSIT_TEST,
        },
      },
      confirmations: e.CHAIN_CONFIRMATIONS,
      mintBatchMax: e.CHAIN_MINT_BATCH_MAX,
      stuckAfterMs: e.CHAIN_STUCK_AFTER_SECONDS * 1000,
      maxFeeGwei: e.CHAIN_MAX_FEE_GWEI,
      autoDeploy: e.CHAIN_AUTO_DEPLOY,
      dataDir: e.CHAIN_DATA_DIR,
      sponsorBudget: {
        companyPerDay: e.SPONSOR_BUDGET_COMPANY_PER_DAY,
        personPerDay: e.SPONSOR_BUDGET_PERSON_PER_DAY,
      },
    },
    mint: { deposit: e.MINT_DEPOSIT, waitMs: e.MINT_WAIT_MS },
    secrets: {
      dataEncryptionKey: e.DATA_ENCRYPTION_KEY ? Buffer.from(e.DATA_ENCRYPTION_KEY, 'hex') : undefined,
      custodyMasterSecret: e.CUSTODY_MASTER_SECRET,
      developmentValues: missingSecrets,
    },
    identity: {
      userTokenKey: e.USER_TOKEN_KEY ? Buffer.from(e.USER_TOKEN_KEY, 'hex') : undefined,
      walletMasterSecret: e.WALLET_MASTER_SECRET,
      smtpUrl: e.SMTP_URL,
      mailFrom: e.MAIL_FROM,
      devMailDir: e.DEV_MAIL_DIR,
      passkeyRpId:
        e.PASSKEY_RP_ID ??
        new URL((e.PUBLIC_BASE_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, '')).hostname,
      passkeyRpName: e.PASSKEY_RP_NAME,
      ssoDomainProofUrl: e.SSO_DOMAIN_PROOF_URL,
      ssoAllowPrivateUrls: e.SSO_ALLOW_PRIVATE_URLS,
    },
    ipfs: { apiUrl: e.IPFS_API_URL, storeDir: e.IPFS_STORE_DIR },
    webhooks: {
      allowPrivateUrlsInTest: webhookPrivateUrlsInTest(
        e.WEBHOOK_ALLOW_PRIVATE_URLS_IN_TEST,
        present,
        options,
      ),
    },
    payments: paymentsConfig(e),
    credentials: credentialsConfig(e),
    backup: backupConfig(e),
    registry: registryConfig(e, backupConfig(e).provider),
    requestLog: requestLogConfig(e),
    page: pageConfig(e),
  };
}
