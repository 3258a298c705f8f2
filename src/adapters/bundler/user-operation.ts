import { concat, TypedDataEncoder, toBeHex, zeroPadValue } from 'ethers';

/** An ERC-4337 v0.8 user operation, unpacked as the bundler JSON-RPC carries it (quantities as bigint). */
export interface UserOperation {
  sender: string;
  nonce: bigint;
  /** Set on the account's first operation: the factory deploys it. */
  factory?: string;
  factoryData?: string;
  callData: string;
  callGasLimit: bigint;
  verificationGasLimit: bigint;
  preVerificationGas: bigint;
  maxFeePerGas: bigint;
  maxPriorityFeePerGas: bigint;
  paymaster?: string;
  paymasterVerificationGasLimit?: bigint;
  paymasterPostOpGasLimit?: bigint;
  paymasterData?: string;
  signature: string;
}

/** The on-chain form (EntryPoint.handleOps, getUserOpHash, the paymaster's sponsorHash). */
export interface PackedUserOperation {
  sender: string;
  nonce: bigint;
  initCode: string;
  callData: string;
  accountGasLimits: string;
  preVerificationGas: bigint;
  gasFees: string;
  paymasterAndData: string;
  signature: string;
}

const pack128 = (high: bigint, low: bigint) => zeroPadValue(toBeHex((high << 128n) | low), 32);
const uint128 = (value: bigint) => zeroPadValue(toBeHex(value), 16);

export function paymasterAndData(op: UserOperation): string {
  if (!op.paymaster) return '0x';
  return concat([
    op.paymaster,
    uint128(op.paymasterVerificationGasLimit ?? 0n),
    uint128(op.paymasterPostOpGasLimit ?? 0n),
    op.paymasterData ?? '0x',
  ]);
}

export function packUserOperation(op: UserOperation): PackedUserOperation {
  return {
    sender: op.sender,
    nonce: op.nonce,
    initCode: op.factory ? concat([op.factory, op.factoryData ?? '0x']) : '0x',
    callData: op.callData,
    accountGasLimits: pack128(op.verificationGasLimit, op.callGasLimit),
    preVerificationGas: op.preVerificationGas,
    gasFees: pack128(op.maxPriorityFeePerGas, op.maxFeePerGas),
    paymasterAndData: paymasterAndData(op),
    signature: op.signature,
  };
}

const PACKED_USER_OPERATION_TYPE = {
  PackedUserOperation: [
    { name: 'sender', type: 'address' },
    { name: 'nonce', type: 'uint256' },
    { name: 'initCode', type: 'bytes' },
    { name: 'callData', type: 'bytes' },
    { name: 'accountGasLimits', type: 'bytes32' },
    { name: 'preVerificationGas', type: 'uint256' },
    { name: 'gasFees', type: 'bytes32' },
    { name: 'paymasterAndData', type: 'bytes' },
  ],
};

/** EntryPoint v0.8's getUserOpHash: the EIP-712 hash of the packed operation (without its signature). */
export function userOperationHash(op: UserOperation, entryPoint: string, chainId: bigint | number): string {
  const { signature: _signature, ...packed } = packUserOperation(op);
  return TypedDataEncoder.hash(
    { name: 'ERC4337', version: '1', chainId, verifyingContract: entryPoint },
    PACKED_USER_OPERATION_TYPE,
    packed,
  );
}

const hex = (value: bigint) => toBeHex(value);

/** The JSON-RPC form of eth_sendUserOperation / eth_estimateUserOperationGas (v0.7+ field names). */
export function toRpcUserOperation(op: UserOperation): Record<string, string> {
  const rpc: Record<string, string> = {
    sender: op.sender,
    nonce: hex(op.nonce),
    callData: op.callData,
    callGasLimit: hex(op.callGasLimit),
    verificationGasLimit: hex(op.verificationGasLimit),
    preVerificationGas: hex(op.preVerificationGas),
    maxFeePerGas: hex(op.maxFeePerGas),
    maxPriorityFeePerGas: hex(op.maxPriorityFeePerGas),
    signature: op.signature,
  };
  if (op.factory) Object.assign(rpc, { factory: op.factory, factoryData: op.factoryData ?? '0x' });
  if (op.paymaster) {
    Object.assign(rpc, {
      paymaster: op.paymaster,
      paymasterVerificationGasLimit: hex(op.paymasterVerificationGasLimit ?? 0n),
      paymasterPostOpGasLimit: hex(op.paymasterPostOpGasLimit ?? 0n),
      paymasterData: op.paymasterData ?? '0x',
    });
  }
  return rpc;
}
