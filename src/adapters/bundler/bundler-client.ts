import { toRpcUserOperation, type UserOperation } from './user-operation.ts';

export interface GasEstimate {
  preVerificationGas: bigint;
  verificationGasLimit: bigint;
  callGasLimit: bigint;
  paymasterVerificationGasLimit?: bigint;
  paymasterPostOpGasLimit?: bigint;
}

export interface UserOperationReceipt {
  userOpHash: string;
  sender: string;
  nonce: bigint;
  /** Whether the operation's call succeeded (the operation is included either way). */
  success: boolean;
  actualGasCost: bigint;
  actualGasUsed: bigint;
  paymaster?: string;
  transactionHash: string;
  blockHash: string;
  blockNumber: number;
  /** The revert data of the call when it failed (v0.7+ bundlers). */
  reason?: string;
}

/** The bundler answered with a JSON-RPC error (ERC-7769 codes: -32500 rejected by the account, …). */
export class BundlerRpcError extends Error {
  readonly method: string;
  readonly code: number;
  readonly data: unknown;

  constructor(method: string, code: number, message: string, data?: unknown) {
    super(`${method}: ${message} (code ${code})`);
    this.name = 'BundlerRpcError';
    this.method = method;
    this.code = code;
    this.data = data;
  }
}

/** The bundler could not be reached at all (connection refused, timeout): nothing is known to be sent. */
export class BundlerUnreachable extends Error {
  readonly method: string;

  constructor(method: string, cause: unknown) {
    super(`${method}: bundler unreachable: ${(cause as Error)?.message ?? String(cause)}`);
    this.name = 'BundlerUnreachable';
    this.method = method;
  }
}

const big = (value: unknown) => (value === undefined || value === null ? undefined : BigInt(value as string));

/**
 * An ERC-4337 bundler behind its standard JSON-RPC (ERC-7769): a local alto in development and tests, the
 * operator's BUNDLER_URL in production. Nothing else in the service speaks to the bundler.
 */
export class BundlerClient {
  readonly url: string;
  readonly entryPoint: string;
  readonly #timeoutMs: number;
  #id = 0;

  constructor(url: string, entryPoint: string, timeoutMs = 15_000) {
    this.url = url;
    this.entryPoint = entryPoint;
    this.#timeoutMs = timeoutMs;
  }

  async call<T>(method: string, params: unknown[]): Promise<T> {
    let response: Response;
    try {
      response = await fetch(this.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: ++this.#id, method, params }),
        signal: AbortSignal.timeout(this.#timeoutMs),
      });
    } catch (error) {
      throw new BundlerUnreachable(method, error);
    }
    const body = (await response.json().catch(() => ({}))) as {
      result?: T;
      error?: { code: number; message: string; data?: unknown };
    };
    if (body.error) throw new BundlerRpcError(method, body.error.code, body.error.message, body.error.data);
    if (!response.ok) throw new BundlerRpcError(method, response.status, `HTTP ${response.status}`);
    return body.result as T;
  }

  supportedEntryPoints(): Promise<string[]> {
    return this.call('eth_supportedEntryPoints', []);
  }

  async estimateUserOperationGas(op: UserOperation): Promise<GasEstimate> {
    const result = await this.call<Record<string, string>>('eth_estimateUserOperationGas', [
      toRpcUserOperation(op),
      this.entryPoint,
    ]);
    return {
      preVerificationGas: BigInt(result.preVerificationGas as string),
      verificationGasLimit: BigInt(result.verificationGasLimit as string),
      callGasLimit: BigInt(result.callGasLimit as string),
      paymasterVerificationGasLimit: big(result.paymasterVerificationGasLimit),
      paymasterPostOpGasLimit: big(result.paymasterPostOpGasLimit),
    };
  }

  /** Returns the operation's hash; the bundler keeps it in its mempool until it lands in a bundle. */
  sendUserOperation(op: UserOperation): Promise<string> {
    return this.call('eth_sendUserOperation', [toRpcUserOperation(op), this.entryPoint]);
  }

  /** undefined while the operation is not (or no longer) in a block the bundler knows. */
  async getUserOperationReceipt(userOpHash: string): Promise<UserOperationReceipt | undefined> {
    const result = await this.call<Record<string, unknown> | null>('eth_getUserOperationReceipt', [
      userOpHash,
    ]);
    if (!result) return undefined;
    const receipt = result.receipt as Record<string, unknown>;
    return {
      userOpHash: result.userOpHash as string,
      sender: result.sender as string,
      nonce: BigInt(result.nonce as string),
      success: result.success === true,
      actualGasCost: BigInt(result.actualGasCost as string),
      actualGasUsed: BigInt(result.actualGasUsed as string),
      paymaster: (result.paymaster as string | undefined) ?? undefined,
      transactionHash: receipt.transactionHash as string,
      blockHash: receipt.blockHash as string,
      blockNumber: Number(receipt.blockNumber),
      reason: (result.reason as string | undefined) ?? undefined,
    };
  }

  /** Whether the bundler still knows the operation (in its mempool or on chain); null when it does not. */
  getUserOperationByHash(userOpHash: string): Promise<Record<string, unknown> | null> {
    return this.call('eth_getUserOperationByHash', [userOpHash]);
  }
}
