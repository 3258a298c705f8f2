import { proxyActivities, proxyLocalActivities } from '@temporalio/workflow';
import type { noopActivities } from './noop-activities.ts';

type Activities = ReturnType<typeof noopActivities>;
const local = proxyLocalActivities<Activities>({ startToCloseTimeout: '30 seconds' });
const remote = proxyActivities<Activities>({ startToCloseTimeout: '30 seconds' });

/**
 * The shape of a mint without its work: two local activities (the mint's prepare and record steps) around
 * one regular activity (its chain write), so the server sees the same workflow and activity tasks.
 */
export async function noopMint(id: string): Promise<string> {
  await local.noopStep(id);
  const done = await remote.noopStep(id);
  await local.noopStep(id);
  return done;
}
