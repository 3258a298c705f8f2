import type { TenantScope } from '../platform/db/tenant-scope.ts';
import type { RecordAttention } from './record-until-done.ts';

/** Name of the query that reports a running recycle's progress. */
export const RECYCLE_PROGRESS_QUERY = 'recycleProgress';

export interface RecycleInput {
  scope: TenantScope;
  tokenId: string;
  /** The recycling company's custodial wallet (asset.recycled `recycler`). */
  recycler: string;
  rewardReceiver: string;
  location: { locationName: string; latitude: number; longitude: number };
  /** Where the search for an earlier attempt's Recycled event starts. */
  mintBlock: number;
}

export type RecycleStep = 'releasing' | 'recording' | 'done';

export interface RecycleProgress {
  step: RecycleStep;
  transactionHash?: string;
  /** Released on chain but not recorded yet: the workflow retries until it is (operators: DppAttention). */
  attention?: RecordAttention;
}

export interface RecycleResult {
  tokenId: string;
  transactionHash: string;
  rewardReceiver: string;
  /** Released deposit in wei (decimal string). */
  releasedWei: string;
  status: 'RECYCLED';
}

/** The recycle workflow: its type name (as the worker registers it) and its signature. */
export const RECYCLE_WORKFLOW = 'recycleTokenPassport';
export type RecycleWorkflow = (input: RecycleInput) => Promise<RecycleResult>;
