import {
  AbiCoder,
  type BaseWallet,
  Contract,
  ContractFactory,
  concat,
  getAddress,
  getCreate2Address,
  type InterfaceAbi,
  type JsonRpcProvider,
  keccak256,
  toBeHex,
  ZeroHash,
  zeroPadValue,
} from 'ethers';
import { loadContractArtifact, PAYMASTER_CONTRACT } from '../chain/compile.ts';
import { waitForReceipt } from '../chain/receipt-wait.ts';
import { DETERMINISTIC_DEPLOYER, deployDeterministic, entryPointArtifact } from './account-contracts.ts';
import type { UserOperation } from './user-operation.ts';

/** Gas the paymaster's validation needs (an ecrecover and a few reads) with a margin; it has no postOp. */
export const PAYMASTER_VERIFICATION_GAS = 60_000n;

export function paymasterArtifact() {
  return loadContractArtifact(PAYMASTER_CONTRACT);
}

/** Deploys our SponsorPaymaster (owned by `owner`, paying for what `sponsorSigner` signs) on `entryPoint`. */
export async function deployPaymaster(
  deployer: BaseWallet,
  entryPoint: string,
  roles: { owner: string; sponsorSigner: string },
): Promise<string> {
  const provider = deployer.provider as JsonRpcProvider;
  const artifact = paymasterArtifact();
  const factory = new ContractFactory(artifact.abi as InterfaceAbi, artifact.bytecode, deployer);
  const request = await factory.getDeployTransaction(entryPoint, roles.owner, roles.sponsorSigner);
  const response = await deployer.sendTransaction(request);
  const receipt = await waitForReceipt(provider, response.hash, {
    confirmations: 1,
    timeoutMs: 60_000,
    pollIntervalMs: 100,
  });
  if (receipt.status !== 1 || !receipt.contractAddress)
    throw new Error(`paymaster deployment failed (${response.hash})`);
  return getAddress(receipt.contractAddress);
}

/**
 * Development chains: our paymaster for these roles at the address the deterministic deployer gives it (the
 * constructor hands ownership to `owner`), deployed unless it is there already.
 */
export async function ensurePaymaster(
  deployer: BaseWallet,
  entryPoint: string,
  roles: { owner: string; sponsorSigner: string },
): Promise<string> {
  const artifact = paymasterArtifact();
  const initCode = concat([
    artifact.bytecode,
    AbiCoder.defaultAbiCoder().encode(
      ['address', 'address', 'address'],
      [entryPoint, roles.owner, roles.sponsorSigner],
    ),
  ]);
  const address = getCreate2Address(DETERMINISTIC_DEPLOYER, ZeroHash, keccak256(initCode));
  await deployDeterministic(deployer, ZeroHash, initCode, address);
  return address;
}

/** The paymaster's deposit at the EntryPoint: what is left to pay gas with. */
export async function paymasterDeposit(
  provider: JsonRpcProvider,
  entryPoint: string,
  paymaster: string,
): Promise<bigint> {
  const contract = new Contract(entryPoint, entryPointArtifact.abi, provider);
  return (await contract.getFunction('balanceOf')(paymaster)) as bigint;
}

/** Tops the paymaster's deposit up to `target` (EntryPoint.depositTo, from `funder`); returns the new deposit. */
export async function fundPaymaster(
  funder: BaseWallet,
  entryPoint: string,
  paymaster: string,
  target: bigint,
): Promise<bigint> {
  const provider = funder.provider as JsonRpcProvider;
  const current = await paymasterDeposit(provider, entryPoint, paymaster);
  if (current >= target) return current;
  const contract = new Contract(entryPoint, entryPointArtifact.abi, funder);
  const response = (await contract.getFunction('depositTo')(paymaster, { value: target - current })) as {
    hash: string;
  };
  const receipt = await waitForReceipt(provider, response.hash, {
    confirmations: 1,
    timeoutMs: 60_000,
    pollIntervalMs: 100,
  });
  if (receipt.status !== 1) throw new Error(`paymaster deposit failed (${response.hash})`);
  return paymasterDeposit(provider, entryPoint, paymaster);
}

const uint48 = (value: number) => zeroPadValue(toBeHex(value), 6);
const uint128 = (value: bigint) => zeroPadValue(toBeHex(value), 16);

/** SponsorPaymaster.sponsorHash computed off chain (the contract's view function gives the same). */
export function sponsorHash(
  op: UserOperation,
  chainId: bigint,
  paymaster: string,
  window: { validUntil: number; validAfter: number },
): string {
  const accountGasLimits = concat([uint128(op.verificationGasLimit), uint128(op.callGasLimit)]);
  const paymasterGasLimits = concat([
    uint128(op.paymasterVerificationGasLimit ?? 0n),
    uint128(op.paymasterPostOpGasLimit ?? 0n),
  ]);
  const gasFees = concat([uint128(op.maxPriorityFeePerGas), uint128(op.maxFeePerGas)]);
  const initCode = op.factory ? concat([op.factory, op.factoryData ?? '0x']) : '0x';
  return keccak256(
    AbiCoder.defaultAbiCoder().encode(
      [
        'address',
        'uint256',
        'bytes32',
        'bytes32',
        'bytes32',
        'bytes32',
        'uint256',
        'bytes32',
        'uint256',
        'address',
        'uint48',
        'uint48',
      ],
      [
        op.sender,
        op.nonce,
        keccak256(initCode),
        keccak256(op.callData),
        accountGasLimits,
        paymasterGasLimits,
        op.preVerificationGas,
        gasFees,
        chainId,
        paymaster,
        window.validUntil,
        window.validAfter,
      ],
    ),
  );
}

/**
 * Sponsors `op`: sets its paymaster fields and signs them with the sponsor key (the operation's gas limits and
 * fees must be final: the signature covers them). Valid from now for `validForSeconds`.
 */
export async function sponsor(
  op: UserOperation,
  options: {
    paymaster: string;
    sponsorKey: BaseWallet;
    chainId: bigint;
    now?: number;
    validForSeconds?: number;
  },
): Promise<UserOperation> {
  const now = options.now ?? Math.floor(Date.now() / 1000);
  const window = { validAfter: Math.max(0, now - 60), validUntil: now + (options.validForSeconds ?? 600) };
  const sponsored: UserOperation = {
    ...op,
    paymaster: options.paymaster,
    paymasterVerificationGasLimit: PAYMASTER_VERIFICATION_GAS,
    paymasterPostOpGasLimit: 0n,
  };
  const signature = await options.sponsorKey.signMessage(
    Buffer.from(sponsorHash(sponsored, options.chainId, options.paymaster, window).slice(2), 'hex'),
  );
  return {
    ...sponsored,
    paymasterData: concat([uint48(window.validUntil), uint48(window.validAfter), signature]),
  };
}
