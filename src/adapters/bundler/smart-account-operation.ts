import {
  type BaseWallet,
  Contract,
  type JsonRpcProvider,
  keccak256,
  toUtf8Bytes,
  Wallet,
  ZeroHash,
} from 'ethers';
import { entryPointArtifact } from './account-contracts.ts';
import type { BundlerClient } from './bundler-client.ts';
import { accountDeployment, executeCall, smartAccountAddress } from './smart-account-address.ts';
import { sponsor } from './sponsor-paymaster.ts';
import { type UserOperation, userOperationHash } from './user-operation.ts';

/** A well-formed signature by nobody in particular: lets the account's validation run during gas estimation. */
const ESTIMATION_SIGNATURE = new Wallet(keccak256(toUtf8Bytes('dpp:estimation-signature'))).signingKey.sign(
  ZeroHash,
).serialized;

/**
 * The 192-bit nonce key of an operation: derived from its idempotency key, so each logical operation (one claim)
 * has its own nonce sequence and its first operation (sequence 0) can be included at most once, whoever resends it.
 */
export function nonceKeyFor(idempotencyKey: string): bigint {
  return BigInt(keccak256(toUtf8Bytes(idempotencyKey))) >> 64n;
}

export interface SponsoredCall {
  /** The person's key (the derived EOA): it owns the smart account and signs the operation. */
  owner: BaseWallet;
  target: string;
  data: string;
  idempotencyKey: string;
}

export interface OperationContext {
  provider: JsonRpcProvider;
  bundler: BundlerClient;
  entryPoint: string;
  chainId: bigint;
  paymaster: string;
  sponsorKey: BaseWallet;
}

const sponsorFor = (ctx: OperationContext, op: UserOperation) =>
  sponsor(op, { paymaster: ctx.paymaster, sponsorKey: ctx.sponsorKey, chainId: ctx.chainId });

/** Margin over the bundler's estimate: estimates are tight and a change in state between estimate and bundle costs the op. */
const margin = (gas: bigint) => (gas * 13n) / 10n;

/**
 * The signed, sponsored operation by which the owner's smart account calls `target` (deploying the account first if
 * it does not exist yet). Deterministic in everything but fees and the paymaster's validity window.
 */
export async function prepareSponsoredOperation(
  ctx: OperationContext,
  call: SponsoredCall,
): Promise<UserOperation> {
  const sender = smartAccountAddress(ctx.entryPoint, call.owner.address);
  const entryPoint = new Contract(ctx.entryPoint, entryPointArtifact.abi, ctx.provider);
  const [code, nonce, block, priority] = await Promise.all([
    ctx.provider.getCode(sender),
    entryPoint.getFunction('getNonce')(sender, nonceKeyFor(call.idempotencyKey)) as Promise<bigint>,
    ctx.provider.getBlock('latest'),
    ctx.provider.send('eth_maxPriorityFeePerGas', []).then(BigInt, () => 1_000_000_000n),
  ]);
  const baseFee = block?.baseFeePerGas ?? 1_000_000_000n;
  const draft: UserOperation = {
    sender,
    nonce,
    ...(code === '0x' ? accountDeployment(ctx.entryPoint, call.owner.address) : {}),
    callData: executeCall(call.target, call.data),
    callGasLimit: 0n,
    verificationGasLimit: 0n,
    preVerificationGas: 0n,
    maxPriorityFeePerGas: priority,
    maxFeePerGas: baseFee * 2n + priority,
    signature: ESTIMATION_SIGNATURE,
  };
  // Estimated as sponsored (the sender has no ETH): the estimate's own gas limits differ from the draft's, so the
  // sponsor signature does not match during estimation, which the paymaster reports as a signature failure
  // (validation data), not a revert, and bundlers ignore in estimation.
  const estimate = await ctx.bundler.estimateUserOperationGas(await sponsorFor(ctx, draft));
  const sized: UserOperation = {
    ...draft,
    callGasLimit: margin(estimate.callGasLimit),
    verificationGasLimit: margin(estimate.verificationGasLimit),
    preVerificationGas: margin(estimate.preVerificationGas),
  };
  const sponsored = await sponsor(sized, {
    paymaster: ctx.paymaster,
    sponsorKey: ctx.sponsorKey,
    chainId: ctx.chainId,
  });
  const hash = userOperationHash(sponsored, ctx.entryPoint, ctx.chainId);
  return { ...sponsored, signature: call.owner.signingKey.sign(hash).serialized };
}
