import Stripe from 'stripe';
import type { Environment } from '../../platform/config/config.ts';
import type { PaymentsConfig, StripeEnvironmentSettings } from '../../platform/config/payments-env.ts';
import { DomainError } from '../../platform/errors.ts';

export interface StripeEnvironment {
  stripe: Stripe;
  settings: StripeEnvironmentSettings;
}

/**
 * The only way the service reaches Stripe: one official SDK client per environment, pointed at Stripe's API
 * or, in development and tests, at stripe-mock (STRIPE_API_BASE). An environment without a key has no
 * client, and its payment operations answer 503 `payments_not_configured`.
 */
export class StripeGateway {
  readonly #clients: Partial<Record<Environment, StripeEnvironment>> = {};
  readonly config: PaymentsConfig;

  constructor(config: PaymentsConfig) {
    this.config = config;
    for (const environment of ['live', 'test'] as const) {
      const settings = config.stripe[environment];
      if (settings)
        this.#clients[environment] = { stripe: createStripe(settings.secretKey, config.apiBase), settings };
    }
  }

  isConfigured(environment: Environment): boolean {
    return this.#clients[environment] !== undefined;
  }

  forEnvironment(environment: Environment): StripeEnvironment {
    const client = this.#clients[environment];
    if (!client) {
      throw new DomainError(
        'unavailable',
        'payments_not_configured',
        `Payments are not configured for the ${environment} environment (STRIPE_SECRET_KEY_${environment.toUpperCase()}).`,
      );
    }
    return client;
  }
}

function createStripe(secretKey: string, apiBase: string | undefined): Stripe {
  const base = apiBase ? new URL(apiBase) : undefined;
  return new Stripe(secretKey, {
    // Pinned by the SDK version; stripe-mock refuses any other (-strict-version-check).
    maxNetworkRetries: 2,
    timeout: 20_000,
    telemetry: false,
    appInfo: { name: 'dpp-service' },
    ...(base
      ? {
          host: base.hostname,
          port: Number(base.port || (base.protocol === 'https:' ? 443 : 80)),
          protocol: base.protocol === 'https:' ? 'https' : 'http',
        }
      : {}),
  });
}
