import { isIP } from 'node:net';
import { z } from 'zod';
import { backupEnvShape } from './backup-env.ts';
import { credentialsEnvShape } from './credentials-env.ts';
import { pageEnvShape } from './page-env.ts';
import { paymentsEnvShape } from './payments-env.ts';
import { registryEnvShape } from './registry-env.ts';
import { requestLogEnvShape } from './request-log-env.ts';

const port = z.coerce.number().int().min(1).max(65535);
const optionalUrl = z.url().optional();
/** A block explorer's transaction page: an http(s) URL with `{tx}` where the transaction hash goes. */
const explorerTemplate = z
  .string()
  .refine(
    (value) => value.includes('{tx}') && /^https?:\/\/[^/\s]+/.test(value),
    'must be an http(s) URL with {tx} where the transaction hash goes, e.g. https://etherscan.io/tx/{tx}',
  )
  .optional();
/** One URL or several separated by commas (failover order); normalised to `url1,url2`. */
const optionalUrlList = z
  .string()
  .transform((text) =>
    text
      .split(',')
      .map((part) => part.trim())
      .filter(Boolean),
  )
  .pipe(z.array(z.url()).min(1, 'must name at least one URL'))
  .transform((urls) => urls.join(','))
  .optional();
const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');
const address = z
  .string()
  .regex(/^0x[0-9a-fA-F]{40}$/, 'must be a 0x-prefixed 20-byte hex address')
  .optional();
const privateKey = z
  .string()
  .regex(/^0x[0-9a-fA-F]{64}$/, 'must be a 0x-prefixed 32-byte hex private key')
  .optional();

/** A decimal amount of the chain's currency (18 decimals), e.g. 0.05. */
const chainAmount = z
  .string()
  .regex(/^\d+(\.\d{1,18})?$/, 'must be a decimal amount of the chain currency, e.g. 0.05');

/** `10.0.0.1`, `10.0.0.0/8`, `::1`, `fd00::/8`: an IP address or a CIDR block of one. */
function isAddressOrBlock(entry: string): boolean {
  const [address = '', prefix, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}

const addressList = z.string().transform((value, ctx) => {
  const entries = value
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  const bad = entries.find((entry) => !isAddressOrBlock(entry));
  if (bad !== undefined) {
    ctx.addIssue({
      code: 'custom',
      message: `"${bad}" is not an IP address or CIDR block (expected a comma-separated list such as 10.0.0.0/8,::1)`,
    });
    return z.NEVER;
  }
  return entries;
});

/**
 * Every environment variable the service reads, in one place. docs/configuration.md lists them all.
 * Values are strings in the environment; this schema turns them into typed settings.
 */
export const envSchema = z.object({
  PORT: port.default(3000),
  HOST: z.string().min(1).default('127.0.0.1'),
  PUBLIC_BASE_URL: optionalUrl,
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// connection URL')
    .optional(),
  DATABASE_POOL_MAX: z.coerce.number().int().min(1).max(200).default(10),
  EMBEDDED_PG_DIR: z.string().min(1).default('.data/postgres'),
  EMBEDDED_PG_PORT: port.default(54329),
  JSON_BODY_LIMIT_BYTES: z.coerce.number().int().min(1024).default(1_048_576),
  JSON_MAX_DEPTH: z.coerce.number().int().min(4).max(256).default(32),
  JSON_MAX_OBJECT_KEYS: z.coerce.number().int().min(16).max(100_000).default(1000),
  BODY_READ_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(10_000),
  RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(0).default(600),
  PUBLIC_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(0).default(6000),
  TRUSTED_PROXIES: addressList.default([]),
  SHUTDOWN_GRACE_MS: z.coerce.number().int().min(0).default(10_000),
  METRICS_TOKEN: z.string().min(32, 'must be at least 32 characters').optional(),
  METRICS_PORT: port.optional(),
  OTEL_EXPORTER_OTLP_ENDPOINT: optionalUrl,
  OTEL_SERVICE_NAME: z.string().min(1).default('dpp'),
  TEMPORAL_ADDRESS: z.string().min(1).optional(),
  TEMPORAL_NAMESPACE: z.string().min(1).default('default'),
  TEMPORAL_TASK_QUEUE_PREFIX: z.string().min(1).default('dpp'),
  TEMPORAL_API_KEY: z.string().min(1).optional(),
  TEMPORAL_DEV_PORT: port.default(7233),
  TEMPORAL_DEV_DB_FILE: z.string().min(1).default('.data/temporal/dev.db'),
  TEMPORAL_TLS: bool.default(false),
  TEMPORAL_TLS_CERT_PATH: z.string().min(1).optional(),
  TEMPORAL_TLS_KEY_PATH: z.string().min(1).optional(),
  CHAIN_RPC_URL_LIVE: optionalUrlList,
  CHAIN_RPC_URL_TEST: optionalUrlList,
  CONTRACT_ADDRESS_LIVE: address,
  CONTRACT_ADDRESS_TEST: address,
  CHAIN_PRIVATE_KEY_LIVE: privateKey,
  CHAIN_PRIVATE_KEY_TEST: privateKey,
  CHAIN_CONFIRMATIONS: z.coerce.number().int().min(1).max(64).default(1),
  CHAIN_MINT_BATCH_MAX: z.coerce.number().int().min(1).max(100).default(20),
  CHAIN_STUCK_AFTER_SECONDS: z.coerce.number().int().min(1).max(3600).default(30),
  CHAIN_MAX_FEE_GWEI: z.coerce.number().positive().max(1_000_000).default(500),
  CHAIN_SIGNER_MIN_BALANCE_LIVE: chainAmount.default('0.05'),
  CHAIN_SIGNER_MIN_BALANCE_TEST: chainAmount.default('0.05'),
  CHAIN_EXPLORER_URL_LIVE: explorerTemplate,
  CHAIN_EXPLORER_URL_TEST: explorerTemplate,
  CHAIN_AUTO_DEPLOY: bool.default(false),
  // Smart accounts (docs/smart-accounts.md): the bundler, our paymaster and the key that signs sponsorships.
  BUNDLER_URL_LIVE: optionalUrl,
  BUNDLER_URL_TEST: optionalUrl,
  PAYMASTER_ADDRESS_LIVE: address,
  PAYMASTER_ADDRESS_TEST: address,
  SPONSOR_PRIVATE_KEY_LIVE: privateKey,
  SPONSOR_PRIVATE_KEY_TEST: privateKey,
  PAYMASTER_MIN_DEPOSIT_LIVE: chainAmount.default('0.1'),
  PAYMASTER_MIN_DEPOSIT_TEST: chainAmount.default('0.1'),
  SPONSOR_BUDGET_COMPANY_PER_DAY: z.coerce.number().int().min(0).default(10_000),
  SPONSOR_BUDGET_PERSON_PER_DAY: z.coerce.number().int().min(0).default(20),
  CHAIN_DATA_DIR: z.string().min(1).default('.data/chain'),
  MINT_DEPOSIT: z
    .string()
    .regex(/^\d+(\.\d{1,18})?$/, 'must be a decimal amount of the chain currency, e.g. 0.001')
    .default('0.001'),
  MINT_WAIT_MS: z.coerce.number().int().min(0).max(120_000).default(20_000),
  DATA_ENCRYPTION_KEY: z
    .string()
    .regex(/^[0-9a-fA-F]{64}$/, 'must be 32 bytes as 64 hex digits')
    .optional(),
  CUSTODY_MASTER_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  WALLET_MASTER_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  USER_TOKEN_KEY: z
    .string()
    .regex(/^[0-9a-fA-F]{64}$/, 'must be an Ed25519 seed: 32 bytes as 64 hex digits')
    .optional(),
  SMTP_URL: z.url().optional(),
  MAIL_FROM: z.string().min(3).max(200).default('Digital Product Passport <no-reply@localhost>'),
  DEV_MAIL_DIR: z.string().min(1).default('.data/mail'),
  PASSKEY_RP_ID: z.string().min(1).max(253).optional(),
  PASSKEY_RP_NAME: z.string().min(1).max(100).default('Digital Product Passport'),
  SSO_ALLOW_PRIVATE_URLS: bool.default(false),
  SSO_DOMAIN_PROOF_URL: z
    .string()
    .includes('{domain}', { message: 'must contain {domain}' })
    .default('https://{domain}/.well-known/dpp-domain-verification.txt'),
  IPFS_API_URL: optionalUrl,
  IPFS_STORE_DIR: z.string().min(1).default('.data/ipfs'),
  /** Unset: on with development defaults (npm start, tests) unless the live environment is configured; else off. */
  WEBHOOK_ALLOW_PRIVATE_URLS_IN_TEST: bool.optional(),
  ...paymentsEnvShape,
  ...credentialsEnvShape,
  ...backupEnvShape,
  ...registryEnvShape,
  ...requestLogEnvShape,
  ...pageEnvShape,
});

export type EnvSettings = z.infer<typeof envSchema>;
