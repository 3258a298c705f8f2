import {
  AbiCoder,
  concat,
  getCreate2Address,
  getCreateAddress,
  Interface,
  keccak256,
  toBeHex,
  zeroPadValue,
} from 'ethers';
import { accountFactoryAddress, accountFactoryArtifact, simpleAccountArtifact } from './account-contracts.ts';

const METADATA_MARKER = '64736f6c6343'; // "solc" in the CBOR metadata that ends every solc build

/**
 * SimpleAccountFactory.getAddress hashes ERC1967Proxy's creation code, which solc embeds in the factory's code:
 * it is the second contract in it (from its `6080604052` to the end of its metadata).
 */
function proxyCreationCode(): string {
  const code = accountFactoryArtifact.deployedBytecode.slice(2);
  const start = code.indexOf('6080604052', 2);
  const marker = code.indexOf(METADATA_MARKER, start);
  if (start < 0 || marker < 0)
    throw new Error('no ERC1967Proxy creation code in the SimpleAccountFactory build');
  return `0x${code.slice(start, marker + METADATA_MARKER.length + 6 + 4)}`; // version (3 bytes) + length (2)
}

const PROXY_CREATION_CODE = proxyCreationCode();
const accountInterface = new Interface(simpleAccountArtifact.abi);
export const factoryInterface = new Interface(accountFactoryArtifact.abi);

/** Every person has one account per EntryPoint: salt 0 (another salt would give them a second account). */
export const ACCOUNT_SALT = 0n;

/**
 * The counterfactual address of the smart account `owner` controls: what factory.getAddress(owner, 0) answers,
 * known before the account exists (the factory deploys it there with the person's first operation).
 */
export function smartAccountAddress(entryPoint: string, owner: string, salt = ACCOUNT_SALT): string {
  const factory = accountFactoryAddress(entryPoint);
  const implementation = getCreateAddress({ from: factory, nonce: 1 }); // the factory's constructor deploys it
  const initialize = accountInterface.encodeFunctionData('initialize', [owner]);
  const args = AbiCoder.defaultAbiCoder().encode(['address', 'bytes'], [implementation, initialize]);
  return getCreate2Address(
    factory,
    zeroPadValue(toBeHex(salt), 32),
    keccak256(concat([PROXY_CREATION_CODE, args])),
  );
}

/** The factory and its call that deploy the account (the first operation's factory / factoryData). */
export function accountDeployment(entryPoint: string, owner: string, salt = ACCOUNT_SALT) {
  return {
    factory: accountFactoryAddress(entryPoint),
    factoryData: factoryInterface.encodeFunctionData('createAccount', [owner, salt]),
  };
}

/** SimpleAccount.execute(target, value, data): the account calls `target` as msg.sender. */
export function executeCall(target: string, data: string, value = 0n): string {
  return accountInterface.encodeFunctionData('execute', [target, value, data]);
}
