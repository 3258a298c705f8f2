import { join } from 'node:path';
import { Wallet } from 'ethers';
import { type Config, ConfigError, ENVIRONMENTS, type Environment } from '../../platform/config/config.ts';
import { type AnvilInstance, startAnvil } from './anvil.ts';
import { createChainProvider } from './chain-provider.ts';
import { ensurePassportDeployment } from './deployment.ts';

/** Where an environment's passport contract lives and who signs for it. */
export interface EnvironmentContract {
  rpcUrl: string;
  privateKey: string;
  contractAddress: string;
  /** On the shared local anvil (which mines one block per transaction). */
  local: boolean;
}

export interface EnvironmentContracts {
  contracts: Record<Environment, EnvironmentContract>;
  /** The local chain started for environments without CHAIN_RPC_URL_*, if any. */
  anvil: AnvilInstance | undefined;
}

const ANVIL_ACCOUNT_OF: Record<Environment, number> = { live: 0, test: 1 };

function checkConfig(config: Config): void {
  const problems: { variable: string; message: string }[] = [];
  for (const environment of ENVIRONMENTS) {
    const settings = config.chain[environment];
    if (!settings.rpcUrl) continue;
    const suffix = environment.toUpperCase();
    if (!settings.contractAddress && !config.chain.autoDeploy)
      problems.push({
        variable: `CONTRACT_ADDRESS_${suffix}`,
        message: `required with CHAIN_RPC_URL_${suffix} (or set CHAIN_AUTO_DEPLOY=true on a development chain)`,
      });
    if (!settings.privateKey)
      problems.push({
        variable: `CHAIN_PRIVATE_KEY_${suffix}`,
        message: `required with CHAIN_RPC_URL_${suffix}`,
      });
  }
  if (problems.length > 0) throw new ConfigError(problems);
}

/** Deploys (or finds the recorded) contract of `environment` on `rpcUrl`; a plain deployment, not a passport write. */
async function ensureOn(rpcUrl: string, privateKey: string, environment: Environment, dataDir: string) {
  const provider = createChainProvider(rpcUrl, 100);
  try {
    return await ensurePassportDeployment({ environment, dataDir, signer: new Wallet(privateKey, provider) });
  } finally {
    provider.destroy();
  }
}

/**
 * The passport contract of each environment. An environment with CHAIN_RPC_URL_{ENV} uses the configured chain,
 * contract and key (all three required; the contract is deployed when CHAIN_AUTO_DEPLOY allows it and none is
 * configured). Without it, both such environments share one local anvil (state kept in `dataDir/anvil-state.json`),
 * each with its own anvil dev key and its own contract, deployed on first use and whenever the chain lost it.
 * Deployments are recorded in `dataDir/chain-deployments.json`.
 */
export async function ensureEnvironmentContracts(
  config: Config,
  options: { dataDir: string; anvilPort?: number | undefined },
): Promise<EnvironmentContracts> {
  checkConfig(config);
  let anvil: AnvilInstance | undefined;
  const resolve = async (environment: Environment): Promise<EnvironmentContract> => {
    const settings = config.chain[environment];
    if (settings.rpcUrl) {
      const privateKey = settings.privateKey!;
      const contractAddress =
        settings.contractAddress ??
        (await ensureOn(settings.rpcUrl, privateKey, environment, options.dataDir)).address;
      return { rpcUrl: settings.rpcUrl, privateKey, contractAddress, local: false };
    }
    anvil ??= await startAnvil({
      port: options.anvilPort,
      stateFile: join(options.dataDir, 'anvil-state.json'),
      stateIntervalSeconds: 5,
    });
    const { privateKey } = anvil.accounts[ANVIL_ACCOUNT_OF[environment]]!;
    const deployment = await ensureOn(anvil.rpcUrl, privateKey, environment, options.dataDir);
    return { rpcUrl: anvil.rpcUrl, privateKey, contractAddress: deployment.address, local: true };
  };
  try {
    const contracts = {} as Record<Environment, EnvironmentContract>;
    for (const environment of ENVIRONMENTS) contracts[environment] = await resolve(environment);
    return { contracts, anvil };
  } catch (error) {
    await anvil?.stop();
    throw error;
  }
}
