import type { JsonRpcProvider, Wallet } from 'ethers';
import type { Orm } from '../../platform/db/orm.ts';

/** What the caller wants on chain; gas is estimated beforehand (a revert surfaces before a nonce is used). */
export interface ChainIntent {
  /** Business operations this transaction carries (one, or each passport of a mintBatch). */
  operationKeys: string[];
  method: string;
  to: string;
  data: string;
  value?: bigint;
  gasLimit: bigint;
}

export type ChainTransactionState =
  | 'signed'
  | 'sent'
  | 'mined'
  | 'confirmed'
  | 'reverted'
  | 'reorged'
  | 'superseded'
  /** Sent on a chain that was replaced since (another genesis block under the same chain id): never resent. */
  | 'abandoned';

/** One row of `chain_transactions` (one nonce of one signer), as operators and callers see it. */
export interface ChainTransaction {
  id: string;
  chainId: number;
  signer: string;
  nonce: number;
  operationKeys: string[];
  method: string;
  state: ChainTransactionState;
  txHash: string;
  txHashes: string[];
  maxFeePerGas: bigint;
  maxPriorityFeePerGas: bigint;
  blockNumber: number | null;
  blockHash: string | null;
  confirmationsRequired: number;
  broadcasts: number;
  feeBumps: number;
  drops: number;
  reorgs: number;
  supersededBy: string | null;
  lastError: string | null;
  createdAt: Date;
  confirmedAt: Date | null;
}

/** A change of transaction hash or block that the records naming the old one must follow (after a reorg). */
export interface ReorgChange {
  fromHashes: string[];
  txHash: string;
  blockNumber: number;
  blockHash: string;
}

/** What the manager reports as it goes (metrics): fixed words only, never a hash or an error text. */
export type ChainTransactionEvent = ChainTransactionState | 'dropped' | 'replaced';

export interface TransactionObserver {
  /** A transaction entered a state, was found dropped, or was re-signed with higher fees ('replaced'). */
  event(event: ChainTransactionEvent): void;
  /** A transaction reached its confirmations this long after its intent was stored (and first broadcast). */
  confirmed(seconds: number): void;
}

export interface TransactionManagerOptions {
  orm: Orm;
  provider: JsonRpcProvider;
  wallet: Wallet;
  /** Blocks on the canonical chain (its own included) before a transaction counts. */
  confirmations: number;
  pollIntervalMs?: number;
  /** A transaction the node knows but has not mined for this long is re-signed with higher fees (same nonce). */
  stuckAfterMs?: number;
  /** Each fee bump raises the fees by at least this much (nodes require 10 %). */
  feeBumpPercent?: number;
  /** Never offers more per gas than this (the signer's safety limit); default 500 gwei. */
  maxFeePerGasCap?: bigint;
  /** How many blocks back confirmed transactions are checked against the canonical chain. */
  reorgWindowBlocks?: number;
  /** Brings records that name a reorged transaction up to date (see reorg-records.ts). */
  reconcile?: (change: ReorgChange) => Promise<void>;
  /** Told of every state change (metrics). */
  observer?: TransactionObserver;
}

export interface Fees {
  maxFeePerGas: bigint;
  maxPriorityFeePerGas: bigint;
}

/** Counters of one manager (this process's share of the work). */
export interface TransactionStats {
  sent: number;
  broadcasts: number;
  rebroadcasts: number;
  feeBumps: number;
  drops: number;
  reorgs: number;
  superseded: number;
  nonceErrors: number;
  /** Nonces this process took up from the shared sequence, not right after its own last one (its first send too). */
  resyncs: number;
  confirmed: number;
}
