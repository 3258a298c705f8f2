import type { EntityManager } from '@mikro-orm/postgresql';
import { ApplicationFailure } from '@temporalio/activity';
import type { SponsoredOperations } from '../src/adapters/bundler/sponsored-operations.ts';
import type { PassportChain } from '../src/adapters/chain/passport-chain.ts';
import type { ContentStore } from '../src/adapters/ipfs/store.ts';
import type { StripeGateway } from '../src/adapters/payments/stripe-gateway.ts';
import type { RegistryPort } from '../src/adapters/registry/registry-port.ts';
import type { Environment } from '../src/platform/config/config.ts';
import type { Orm } from '../src/platform/db/orm.ts';
import { scopedEntityManager, type TenantScope } from '../src/platform/db/tenant-scope.ts';
import type { Logger } from '../src/platform/logging/logger.ts';
import type { SecretBox } from '../src/platform/secret-box.ts';
import type { Resolver, UrlPolicy } from '../src/webhooks/url-safety.ts';

/**
 * Everything the activities of one environment's task queue may touch. Production wiring builds it from
 * configuration; tests pass real parts (a test database, anvil, a temporary IPFS store).
 */
export interface EnvironmentDeps {
  environment: Environment;
  orm: Orm;
  logger: Logger;
  secretBox: SecretBox;
  contentStore: ContentStore;
  chain: PassportChain;
  depositWei: bigint;
  publicBaseUrl: string;
  custodyMasterSecret: string | undefined;
  /** Stripe; activities use `payments.forEnvironment(environment)` (503-class error when not configured). */
  payments: StripeGateway;
  /** The EU DPP registry (docs/registry.md); unset: this environment's registrations wait until configured. */
  registry?: { port: RegistryPort; serviceProviderId: string; backupCopyUrlTemplate: string | undefined };
  /**
   * ERC-4337 smart accounts (docs/smart-accounts.md): buyers' claims become sponsored user operations of their
   * own accounts through the bundler. Unset: the platform relays claims (claimOwnershipFor).
   */
  smartAccounts?: { operations: SponsoredOperations; walletMasterSecret: string | undefined };
  /** Where webhook deliveries may connect; unset: private targets allowed in test only (the default). */
  webhookUrlPolicy?: UrlPolicy;
  /** Test seam: answers webhook hosts' DNS instead of the system resolver. */
  webhookResolver?: Resolver;
  /** Test seams for crash tests (e.g. pause after a transaction is submitted); never set in production. */
  hooks?: {
    afterMintSubmitted?: (transactionHash: string) => Promise<void>;
    afterRecycleSubmitted?: (transactionHash: string) => Promise<void>;
  };
}

/**
 * An EntityManager bound to the task's company and environment. A task of the other environment on this
 * worker's queue is a wiring error: failed for good, never run against the wrong chain or keys.
 */
export function scopedFor(deps: EnvironmentDeps, scope: TenantScope): EntityManager {
  if (scope.environment !== deps.environment) {
    throw ApplicationFailure.nonRetryable(
      `task for ${scope.environment} reached the ${deps.environment} worker`,
    );
  }
  return scopedEntityManager(deps.orm.em, scope);
}
