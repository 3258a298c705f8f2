import type { JsonRpcProvider } from 'ethers';
import type { PassportArtifact } from './compile.ts';
import type { ChainRevert } from './errors.ts';
import type { TransactionManagerOptions } from './transaction-manager.ts';

export type TokenIdInput = bigint | number | string;

export interface PassportEvent {
  name: string;
  /** Named event arguments (bigints for integers). */
  args: Record<string, unknown>;
}

export interface TxResult {
  txHash: string;
  blockNumber: number;
  /** The passport contract's events in this transaction, in log order. */
  events: PassportEvent[];
}

export interface WriteOptions {
  /** Called once the node accepted the transaction, before waiting for it: persist the hash here. */
  onSubmitted?: (txHash: string) => void | Promise<void>;
  /**
   * The business operation this write performs (default: the one `withOperationKey` set, e.g. by
   * runChainWrite for a Temporal activity). A write whose operation already has a transaction waits for that
   * one instead of sending another.
   */
  operationKey?: string;
}

export interface MintRequest {
  to: string;
  metadataUri: string;
  chipUid: string;
  /** Locked as the circular deposit until recycling; 0 (the default) means no deposit. */
  depositWei?: bigint;
  /** A token id reserved beforehand (contract `mintWithId`); omitted: the contract's next id. */
  tokenId?: TokenIdInput;
}

/** A mint as recorded on chain (token ids are decimal strings, amounts bigint wei). */
export interface MintRecord {
  tokenId: string;
  chipHash: string;
  /** The owner at mint time. */
  owner: string;
  metadataUri: string;
  deposit: bigint;
  txHash: string;
  blockNumber: number;
}

export type TransactionOutcome =
  | { status: 'unknown' }
  | { status: 'pending' }
  | ({ status: 'mined'; confirmations: number } & TxResult)
  | { status: 'reverted'; txHash: string; blockNumber: number; error: ChainRevert };

export interface PassportChainOptions {
  rpcUrl?: string;
  /** Use this provider instead of opening one for rpcUrl (it is then not destroyed by close()). */
  provider?: JsonRpcProvider;
  /** The platform signer: holds both DEFAULT_ADMIN_ROLE and MINTER_ROLE. */
  privateKey: string;
  contractAddress: string;
  /** Blocks a write waits for, its own block included (default 1). */
  confirmations?: number;
  /** Upper bound of the receipt polling interval (default 1000 ms). */
  pollIntervalMs?: number;
  /** How long a write waits for its receipt before throwing TransactionTimeoutError (default 120 s). */
  receiptTimeoutMs?: number;
  artifact?: PassportArtifact;
  /** Most reserved-id mints sent together as one `mintBatch` (default 20; 1: every mint alone). */
  mintBatchMax?: number;
  /**
   * The TransactionManager every write goes through, on the service database (chain_transactions: intents
   * stored before broadcast, nonces shared by every process, fee bumps, canonical confirmations, reorg recovery).
   */
  transactions: Omit<TransactionManagerOptions, 'provider' | 'wallet' | 'confirmations' | 'pollIntervalMs'>;
}
