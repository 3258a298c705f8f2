import { providerKey } from './enqueue.ts';
import { type PusherDeps, pushDueVersions } from './pusher.ts';

export interface PushTally {
  acknowledged: number;
  pending: number;
  refused: number;
}

/**
 * Pushes to the provider until every version is acknowledged or refused, or `maxMs` passes (an operator's
 * `backup:push`: a first copy at a new provider, or a push now instead of the worker's next pass).
 */
export async function pushUntilSettled(deps: PusherDeps, maxMs = 60_000): Promise<PushTally> {
  const until = Date.now() + maxMs;
  for (;;) {
    await pushDueVersions(deps);
    const tally = await pushTally(deps);
    if (tally.pending === 0 || Date.now() > until) return tally;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

async function pushTally(deps: PusherDeps): Promise<PushTally> {
  const rows = await deps
    .em()
    .getConnection()
    .execute<{ status: keyof PushTally; n: number }[]>(
      'select status, count(*)::int as n from backup_pushes where provider = ? group by status',
      [providerKey(deps.provider)],
    );
  const tally: PushTally = { acknowledged: 0, pending: 0, refused: 0 };
  for (const row of rows) tally[row.status] = row.n;
  return tally;
}
