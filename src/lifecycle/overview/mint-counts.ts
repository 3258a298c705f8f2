import type { Client } from '@temporalio/client';
import type { Environment } from '../../platform/config/config.ts';

export interface MintCounts {
  running: number;
  /** Running mints whose token is on chain but whose record keeps failing (DppAttention set). */
  needAttention: number;
}

/**
 * The company's mint workflows running in each environment, counted by Temporal's visibility (no listing):
 * eventually consistent, so a mint started a moment ago may count a moment later.
 */
export async function runningMintCounts(
  client: Client,
  companyId: string,
  environments: readonly Environment[],
): Promise<Record<Environment, MintCounts>> {
  const counts = {} as Record<Environment, MintCounts>;
  for (const environment of environments) {
    // Both values are ours (a UUID and 'live' or 'test'), never the caller's text.
    const running =
      `WorkflowType = "mintPassport" AND ExecutionStatus = "Running" AND ` +
      `DppCompanyId = "${companyId}" AND DppEnvironment = "${environment}"`;
    const [all, stuck] = await Promise.all([
      client.workflow.count(running),
      client.workflow.count(`${running} AND DppAttention IS NOT NULL`),
    ]);
    counts[environment] = { running: all.count, needAttention: stuck.count };
  }
  return counts;
}
