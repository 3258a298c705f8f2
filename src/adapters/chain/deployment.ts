import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { JsonFragment, JsonRpcProvider, Wallet } from 'ethers';
import { ContractFactory, getAddress } from 'ethers';
import { loadPassportArtifact, type PassportArtifact } from './compile.ts';
import { waitForReceipt } from './receipt-wait.ts';

export interface PassportRoles {
  /** Receives DEFAULT_ADMIN_ROLE (claims, recycling, role management). */
  admin: string;
  /** Receives MINTER_ROLE (minting, events, recycling). */
  minter: string;
}

export interface DeployedPassport {
  address: string;
  txHash: string;
  blockNumber: number;
}

/** Deploys the passport contract and waits for the deployment receipt. */
export async function deployPassport(
  signer: Wallet,
  roles: PassportRoles,
  options: { artifact?: PassportArtifact; timeoutMs?: number } = {},
): Promise<DeployedPassport> {
  const provider = signer.provider as JsonRpcProvider | null;
  if (!provider) throw new TypeError('deployPassport needs a signer connected to a provider');
  const artifact = options.artifact ?? loadPassportArtifact();
  const factory = new ContractFactory(artifact.abi as JsonFragment[], artifact.bytecode, signer);
  const request = await factory.getDeployTransaction(getAddress(roles.admin), getAddress(roles.minter));
  const response = await signer.sendTransaction(request);
  const receipt = await waitForReceipt(provider, response.hash, {
    confirmations: 1,
    timeoutMs: options.timeoutMs ?? 120_000,
    pollIntervalMs: 250,
  });
  if (receipt.status !== 1 || !receipt.contractAddress) {
    throw new Error(`deployment of ${artifact.contractName} failed (transaction ${response.hash})`);
  }
  return {
    address: getAddress(receipt.contractAddress),
    txHash: response.hash,
    blockNumber: receipt.blockNumber,
  };
}

interface DeploymentRecord extends DeployedPassport {
  environment: string;
  chainId: string;
  sourceHash: string;
  deployedAt: string;
}

export const DEPLOYMENTS_FILE = 'chain-deployments.json';

function readRecords(file: string): Record<string, DeploymentRecord> {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as Record<string, DeploymentRecord>;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw error;
  }
}

function writeRecords(file: string, records: Record<string, DeploymentRecord>): void {
  mkdirSync(dirname(file), { recursive: true });
  const temp = `${file}.${process.pid}.tmp`;
  writeFileSync(temp, `${JSON.stringify(records, null, 2)}\n`);
  renameSync(temp, file);
}

export interface EnsureDeploymentOptions {
  /** live | test (any label keeping deployments apart). */
  environment: string;
  /** Directory holding chain-deployments.json. */
  dataDir: string;
  signer: Wallet;
  /** Defaults to the signer for both roles (the single platform signer). */
  roles?: PassportRoles;
  artifact?: PassportArtifact;
}

/**
 * Development and tests: the address of this environment's contract on this chain, deploying it
 * first when there is none yet, or when the recorded address holds no (or other) code, e.g. because
 * anvil restarted without its state. Records are keyed by environment, chain id and artifact hash.
 */
export async function ensurePassportDeployment(
  options: EnsureDeploymentOptions,
): Promise<DeployedPassport & { deployed: boolean }> {
  const provider = options.signer.provider as JsonRpcProvider | null;
  if (!provider) throw new TypeError('ensurePassportDeployment needs a signer connected to a provider');
  const artifact = options.artifact ?? loadPassportArtifact();
  const chainId = (await provider.getNetwork()).chainId.toString();
  const key = `${options.environment}:${chainId}:${artifact.sourceHash}`;
  const file = join(options.dataDir, DEPLOYMENTS_FILE);

  const recorded = readRecords(file)[key];
  if (recorded) {
    const code = await provider.getCode(recorded.address);
    if (code.toLowerCase() === artifact.deployedBytecode.toLowerCase())
      return { ...recorded, deployed: false };
  }
  const roles = options.roles ?? { admin: options.signer.address, minter: options.signer.address };
  const deployment = await deployPassport(options.signer, roles, { artifact });
  const records = readRecords(file); // re-read: another environment may have written meanwhile
  records[key] = {
    ...deployment,
    environment: options.environment,
    chainId,
    sourceHash: artifact.sourceHash,
    deployedAt: new Date().toISOString(),
  };
  writeRecords(file, records);
  return { ...deployment, deployed: true };
}
