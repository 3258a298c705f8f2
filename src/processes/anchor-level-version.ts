import type { TenantScope } from '../platform/db/tenant-scope.ts';

/** One version of a model or batch passport to anchor (docs/granularity.md "Versions and anchoring"). */
export interface AnchorLevelVersionInput {
  scope: TenantScope;
  levelId: number;
  number: number;
}

export interface AnchorLevelVersionResult {
  transactionHash: string;
  blockNumber: number;
}

/** The anchor workflow of a level version: its type name (as the worker registers it) and its signature. */
export const ANCHOR_LEVEL_VERSION_WORKFLOW = 'anchorLevelVersion';
export type AnchorLevelVersionWorkflow = (
  input: AnchorLevelVersionInput,
) => Promise<AnchorLevelVersionResult>;
