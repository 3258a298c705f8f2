import { parseEther } from 'ethers';
import type { EnvironmentDeps } from '../activities/index.ts';
import type { SponsoredOperations } from '../src/adapters/bundler/sponsored-operations.ts';
import type { PassportChains } from '../src/adapters/chain/environment-chains.ts';
import type { ContentStore } from '../src/adapters/ipfs/store.ts';
import { StripeGateway } from '../src/adapters/payments/stripe-gateway.ts';
import { registryFor } from '../src/adapters/registry/registry-for.ts';
import { type Config, ENVIRONMENTS, type Environment } from '../src/platform/config/config.ts';
import type { Orm } from '../src/platform/db/orm.ts';
import type { Logger } from '../src/platform/logging/logger.ts';
import type { SecretBox } from '../src/platform/secret-box.ts';
import { urlPolicyFor } from '../src/webhooks/url-safety.ts';

/** The activities' dependencies for each environment, from configuration and opened resources. */
export function environmentDeps(parts: {
  config: Config;
  orm: Orm;
  logger: Logger;
  secretBox: SecretBox;
  contentStore: ContentStore;
  chains: PassportChains;
  /** Sponsored user operations of the environments that have smart accounts (openEnvironmentAccounts). */
  smartAccounts?: Partial<Record<Environment, SponsoredOperations>>;
}): Record<Environment, EnvironmentDeps> {
  const depositWei = parseEther(parts.config.mint.deposit);
  const payments = new StripeGateway(parts.config.payments);
  const build = (environment: Environment): EnvironmentDeps => ({
    environment,
    orm: parts.orm,
    logger: parts.logger.child({ environment }),
    secretBox: parts.secretBox,
    contentStore: parts.contentStore,
    chain: parts.chains[environment],
    depositWei,
    publicBaseUrl: parts.config.publicBaseUrl,
    custodyMasterSecret: parts.config.secrets.custodyMasterSecret,
    payments,
    webhookUrlPolicy: urlPolicyFor(environment, parts.config.webhooks.allowPrivateUrlsInTest),
    ...registryDeps(parts.config, environment),
    ...smartAccountDeps(parts, environment),
  });
  return Object.fromEntries(ENVIRONMENTS.map((e) => [e, build(e)])) as Record<Environment, EnvironmentDeps>;
}

function smartAccountDeps(
  parts: { config: Config; smartAccounts?: Partial<Record<Environment, SponsoredOperations>> },
  environment: Environment,
): Pick<EnvironmentDeps, 'smartAccounts'> {
  const operations = parts.smartAccounts?.[environment];
  if (!operations) return {};
  return { smartAccounts: { operations, walletMasterSecret: parts.config.identity.walletMasterSecret } };
}

function registryDeps(config: Config, environment: Environment): Pick<EnvironmentDeps, 'registry'> {
  const port = registryFor(config.registry, environment);
  if (!port) return {};
  const { serviceProviderId, backupCopyUrlTemplate } = config.registry;
  return { registry: { port, serviceProviderId, backupCopyUrlTemplate } };
}
