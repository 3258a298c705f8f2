import { createRequire } from 'node:module';
import {
  AbiCoder,
  type BaseWallet,
  concat,
  getAddress,
  getCreate2Address,
  type InterfaceAbi,
  type JsonRpcProvider,
  keccak256,
  ZeroHash,
  zeroPadValue,
} from 'ethers';
import { waitForReceipt } from '../chain/receipt-wait.ts';

const require = createRequire(import.meta.url);

interface PackageArtifact {
  contractName: string;
  abi: InterfaceAbi;
  bytecode: string;
  deployedBytecode: string;
}

/** The published builds of @account-abstraction/contracts 0.8.0 (EntryPoint v0.8, SimpleAccount). */
function packageArtifact(name: string): PackageArtifact {
  return require(`@account-abstraction/contracts/artifacts/${name}.json`) as PackageArtifact;
}

export const entryPointArtifact = packageArtifact('EntryPoint');
export const accountFactoryArtifact = packageArtifact('SimpleAccountFactory');
export const simpleAccountArtifact = packageArtifact('SimpleAccount');

/** The CREATE2 factory every development chain has (anvil predeploys it; alto installs it if missing). */
export const DETERMINISTIC_DEPLOYER = '0x4e59b44847b379578588920cA78FbF26c0B4956C';

/**
 * Our EntryPoint: the published v0.8 build, created through the deterministic deployer with this salt, so it has
 * the same address on every chain that has that deployer, and anyone can deploy it where it is missing. The salt
 * was found once by search so that the address starts 0x433708: bundlers recognise an EntryPoint v0.8 by that
 * prefix (alto does). Smart-account addresses derive from it (docs/smart-accounts.md).
 */
export const ENTRY_POINT_SALT = zeroPadValue('0x01cbfa17', 32);
export const FACTORY_SALT = ZeroHash;

export const ENTRY_POINT_ADDRESS = getCreate2Address(
  DETERMINISTIC_DEPLOYER,
  ENTRY_POINT_SALT,
  keccak256(entryPointArtifact.bytecode),
);

function factoryInitCode(entryPoint: string): string {
  return concat([
    accountFactoryArtifact.bytecode,
    AbiCoder.defaultAbiCoder().encode(['address'], [entryPoint]),
  ]);
}

/** The SimpleAccountFactory of an EntryPoint: one address per EntryPoint on every chain. */
export function accountFactoryAddress(entryPoint: string): string {
  return getCreate2Address(DETERMINISTIC_DEPLOYER, FACTORY_SALT, keccak256(factoryInitCode(entryPoint)));
}

/** Creates `initCode` through the deterministic deployer unless `expected` already has code; true when it did. */
export async function deployDeterministic(
  signer: BaseWallet,
  salt: string,
  initCode: string,
  expected: string,
): Promise<boolean> {
  const provider = signer.provider as JsonRpcProvider;
  // Uncached (ethers providers may answer a repeated call from a short cache): the code changes in between.
  const codeAt = (address: string) => provider.send('eth_getCode', [address, 'latest']) as Promise<string>;
  if ((await codeAt(expected)) !== '0x') return false;
  if ((await codeAt(DETERMINISTIC_DEPLOYER)) === '0x')
    throw new Error(`no deterministic deployer at ${DETERMINISTIC_DEPLOYER} on this chain`);
  const response = await signer.sendTransaction({
    to: DETERMINISTIC_DEPLOYER,
    data: concat([salt, initCode]),
  });
  const receipt = await waitForReceipt(provider, response.hash, {
    confirmations: 1,
    timeoutMs: 60_000,
    pollIntervalMs: 100,
  });
  if (receipt.status !== 1 || (await codeAt(expected)) === '0x')
    throw new Error(`deterministic deployment of ${expected} failed (transaction ${response.hash})`);
  return true;
}

export interface AccountInfrastructure {
  entryPoint: string;
  factory: string;
}

/**
 * Development and tests: the EntryPoint v0.8 and the account factory, deployed once per chain at addresses that
 * do not depend on who deploys them (a second call finds them and sends nothing).
 */
export async function ensureAccountInfrastructure(signer: BaseWallet): Promise<AccountInfrastructure> {
  await deployDeterministic(signer, ENTRY_POINT_SALT, entryPointArtifact.bytecode, ENTRY_POINT_ADDRESS);
  const factory = accountFactoryAddress(ENTRY_POINT_ADDRESS);
  await deployDeterministic(signer, FACTORY_SALT, factoryInitCode(ENTRY_POINT_ADDRESS), factory);
  return { entryPoint: getAddress(ENTRY_POINT_ADDRESS), factory };
}
