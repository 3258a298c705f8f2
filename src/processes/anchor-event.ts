import type { TenantScope } from '../platform/db/tenant-scope.ts';
import type { RecordAttention } from './record-until-done.ts';

/** Name of the query that reports a running anchor's progress. */
export const ANCHOR_PROGRESS_QUERY = 'anchorProgress';

export interface AnchorEventInput {
  scope: TenantScope;
  eventId: number;
}

export interface AnchorEventResult {
  eventId: number;
  transactionHash: string;
  blockNumber: number;
}

export interface AnchorEventProgress {
  step: 'anchoring' | 'recording' | 'done';
  transactionHash?: string;
  /** Logged on chain but not recorded yet: the workflow retries until it is (operators: DppAttention). */
  attention?: RecordAttention;
}

/** The anchor workflow of a supply-chain event: its type name (as the worker registers it) and its signature. */
export const ANCHOR_EVENT_WORKFLOW = 'anchorSupplyChainEvent';
export type AnchorEventWorkflow = (input: AnchorEventInput) => Promise<AnchorEventResult>;
