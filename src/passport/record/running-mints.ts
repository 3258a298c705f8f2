import type { Client } from '@temporalio/client';
import type { TenantScope } from '../../platform/db/tenant-scope.ts';
import { searchAttributes } from '../../processes/search-attributes.ts';

/** Most running mints one answer names; more are rare (a mint takes seconds) and the answer says so. */
export const RUNNING_MINTS_MAX = 100;

export interface RunningMint {
  chipUid: string;
  workflowId: string;
  startedAt: string;
  /** `record_failed` while the token is on chain but its record keeps failing (an operator's attention). */
  attention: string | null;
}

/**
 * The company's mints under way in one environment, newest first, from Temporal's visibility (the mint
 * workflows carry DppCompanyId, DppEnvironment, DppChipUid and, when stuck, DppAttention). Visibility is
 * eventually consistent: a mint started a moment ago may show a moment later. The progress of each is
 * GET /v1/dpp/mint/{chipUid}.
 */
export async function runningMints(
  client: Client,
  scope: TenantScope,
): Promise<{ mints: RunningMint[]; more: boolean }> {
  // Both values are ours (a UUID and 'live' or 'test'), never the caller's text.
  const query =
    `WorkflowType = "mintPassport" AND ExecutionStatus = "Running" AND ` +
    `DppCompanyId = "${scope.companyId}" AND DppEnvironment = "${scope.environment}"`;
  const mints: RunningMint[] = [];
  for await (const execution of client.workflow.list({ query, pageSize: RUNNING_MINTS_MAX + 1 })) {
    if (mints.length === RUNNING_MINTS_MAX) return { mints, more: true };
    const attributes = execution.typedSearchAttributes;
    mints.push({
      chipUid: attributes.get(searchAttributes.chipUid) ?? '',
      workflowId: execution.workflowId,
      startedAt: execution.startTime.toISOString(),
      attention: attributes.get(searchAttributes.attention) ?? null,
    });
  }
  return { mints, more: false };
}
