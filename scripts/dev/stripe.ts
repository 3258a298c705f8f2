import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Config } from '../../src/platform/config/config.ts';
import type { Logger } from '../../src/platform/logging/logger.ts';
import { obtainStripeMock, startStripeMock } from './stripe-mock.ts';

export interface DevStripe {
  /** The configuration with the test environment pointed at stripe-mock (unchanged when keys are set). */
  config: Config;
  /** For the start banner; undefined when real Stripe keys are configured. */
  mock: { url: string; webhookSecret: string } | undefined;
  stop(): Promise<void>;
}

/**
 * The test environment's keys on stripe-mock, for `npm start` and the tests alike (one source, so the two can
 * never drift apart again). stripe-mock accepts any key of the shape `sk_test_` + letters and digits; an
 * underscore after the prefix (say `sk_test_stripe_mock`) is refused as not "valid looking".
 */
export const STRIPE_MOCK_KEYS = {
  secretKey: 'sk_test_DppServiceOnStripeMock0123456789',
  prices: { essential: 'price_dev_essential', pro: 'price_dev_pro' },
} as const;

/**
 * Stripe for `npm start`: configured keys when the test environment has them, else stripe-mock with a fixed
 * test key and a webhook signing secret kept in the data directory (so events you sign with it keep working
 * across restarts). Prices are placeholders; stripe-mock accepts any well-formed id.
 */
export async function startDevStripe(config: Config, logger: Logger, dataDir = '.data'): Promise<DevStripe> {
  if (config.payments.stripe.test) return { config, mock: undefined, stop: async () => {} };
  const mock = await startStripeMock(await obtainStripeMock((line) => logger.info(line)));
  const webhookSecret = await persistentSecret(`${dataDir}/stripe/webhook-secret`);
  logger.info({ url: mock.url }, 'stripe-mock started for the test environment');
  return {
    config: {
      ...config,
      payments: {
        ...config.payments,
        apiBase: mock.url,
        stripe: {
          ...config.payments.stripe,
          test: {
            secretKey: STRIPE_MOCK_KEYS.secretKey,
            webhookSecret,
            prices: { ...STRIPE_MOCK_KEYS.prices },
          },
        },
      },
    },
    mock: { url: mock.url, webhookSecret },
    stop: () => mock.stop(),
  };
}

async function persistentSecret(path: string): Promise<string> {
  const existing = await readFile(path, 'utf8').catch(() => undefined);
  if (existing?.startsWith('whsec_')) return existing.trim();
  const secret = `whsec_${randomBytes(24).toString('base64url')}`;
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, `${secret}\n`, { mode: 0o600 });
  return secret;
}
