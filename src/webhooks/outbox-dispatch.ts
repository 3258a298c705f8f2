import type { WorkflowGateway } from '../adapters/temporal/start.ts';
import { ENVIRONMENTS, type Environment } from '../platform/config/config.ts';
import type { Orm } from '../platform/db/orm.ts';
import { ATTEMPT_CONTEXT_COLUMNS } from './delivery-records.ts';
import { type ClaimedFirstAttempt, claimedAttempt, createDeliveries, pgArray } from './dispatch-rows.ts';
import { firstAttemptPass } from './first-attempt-pass.ts';
import { startDeliveryWorkflow } from './start-delivery.ts';

export type { ClaimedFirstAttempt } from './dispatch-rows.ts';

export interface DispatchHooks {
  /** Runs after a batch's workflows are started, before its events are marked dispatched (crash tests). */
  afterStarts?: (eventIds: string[]) => Promise<void>;
}

export interface FirstAttemptClaims {
  /** The environments whose first attempts this dispatcher makes itself (it has their senders). */
  environments: Environment[];
  /** Receives the claimed attempts once their claim has committed; sends them without holding the pass. */
  send(claimed: ClaimedFirstAttempt[]): void;
  /** How many more claimed attempts it takes now (default: a batch's worth). */
  room?(): number;
}

const STARTS_IN_PARALLEL = 32;
/** Most events of one workflow pass: its transaction holds their locks while it starts their workflows. */
const WORKFLOW_PASS = 100;

async function inParallel<T>(items: T[], limit: number, run: (item: T) => Promise<unknown>): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < items.length) await run(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
}

// In one statement: claims attempt 1 of each pending, never-attempted delivery of the events in an environment
// the dispatcher sends for (a claim exists at most once per delivery, by the unique (delivery_id, attempt), so
// no attempt is ever sent twice), and returns every pending delivery of the events: a claimed one with what
// its attempt needs (the event, the endpoint as it is now), any other with no attempt in flight for a
// delivery workflow.
const CLAIM_OR_LIST = `
  with claimed as (
    insert into webhook_attempts (delivery_id, attempt, started_at, duration_ms, in_flight)
    select d.id, 1, now(), 0, true from webhook_deliveries d
    where d.event_id = any(?::uuid[]) and d.status = 'pending' and d.attempt_count = 0
      and d.environment = any(?::text[])
      and not exists (select 1 from webhook_attempts a where a.delivery_id = d.id)
    on conflict (delivery_id, attempt) do nothing
    returning delivery_id
  )
  select d.id as delivery_id, d.endpoint_id, d.company_id, d.environment, c.delivery_id is not null as claimed,
         ${ATTEMPT_CONTEXT_COLUMNS}
  from webhook_deliveries d
  join outbox_events o on o.id = d.event_id
  left join claimed c on c.delivery_id = d.id
  left join webhook_endpoints e on e.id = d.endpoint_id and e.company_id = d.company_id
    and e.environment = d.environment
  where d.event_id = any(?::uuid[]) and d.status = 'pending'
    and (c.delivery_id is not null
         or not exists (select 1 from webhook_attempts a where a.delivery_id = d.id and a.in_flight))`;

/**
 * The pass for events whose deliveries run as workflows (environments without first attempts here, or a
 * delivery an earlier pass left):
 * 1. lock up to `batchSize` undispatched events, oldest first (`for no key update skip locked`);
 * 2. create their delivery rows, committed on their own before any workflow can look for them;
 * 3. claim attempt 1 of each new delivery in an environment this dispatcher sends for (CLAIM_OR_LIST); start
 *    one delivery workflow per other pending delivery (`dispatch`: a repeat joins or does nothing);
 * 4. mark the events dispatched and commit, releasing the locks; then hand the claimed attempts over.
 * A crash before the commit leaves the events undispatched and nothing claimed; the next pass repeats 2–4
 * without duplicating anything.
 */
async function workflowPass(
  orm: Orm,
  gateway: WorkflowGateway,
  options: {
    batchSize: number;
    hooks?: DispatchHooks | undefined;
    firstAttempts?: FirstAttemptClaims | undefined;
  },
): Promise<number> {
  let claimed: ClaimedFirstAttempt[] = [];
  const dispatched = await orm.em.fork({ disableContextResolution: true }).transactional(async (tx) => {
    const events = await tx.execute<{ id: string }[]>(
      `select id from outbox_events where dispatched_at is null order by occurred_at, id limit ?
       for no key update skip locked`,
      [options.batchSize],
    );
    if (events.length === 0) return 0;
    const eventIds = events.map((event) => event.id);
    // The delivery rows' foreign keys take key-share locks on the events, which `no key update` allows.
    await orm.em.fork({ disableContextResolution: true }).execute(createDeliveries('?'), [eventIds]);
    const ids = pgArray(eventIds);
    const rows = await tx.execute<Record<string, unknown>[]>(CLAIM_OR_LIST, [
      ids,
      pgArray(options.firstAttempts?.environments ?? []),
      ids,
    ]);
    claimed = rows.filter((row) => row.claimed).map(claimedAttempt);
    const others = rows.filter((row) => !row.claimed).map((row) => claimedAttempt(row).delivery);
    await inParallel(others, STARTS_IN_PARALLEL, (delivery) =>
      startDeliveryWorkflow(gateway, delivery, 'dispatch'),
    );
    await options.hooks?.afterStarts?.(eventIds);
    await tx.execute('update outbox_events set dispatched_at = now() where id in (?)', [eventIds]);
    return eventIds.length;
  });
  if (claimed.length > 0) options.firstAttempts?.send(claimed);
  return dispatched;
}

/**
 * One dispatcher pass over up to `batchSize` undispatched outbox events, oldest first. Events of the
 * environments this dispatcher sends first attempts for go through one statement (firstAttemptPass: deliveries
 * created, first attempts claimed, events marked, all committed at once), their claimed attempts handed over to
 * be sent (first-attempts.ts: a failure starts the retry workflow; a crash leaves the claim for the sweep).
 * When that does not fill the batch, the rest goes through the transactional workflow pass. Several
 * dispatchers may run at once: they take different events, and no delivery is attempted twice. Returns the
 * number of events dispatched.
 */
export async function dispatchOutboxBatch(
  orm: Orm,
  gateway: WorkflowGateway,
  options: { batchSize: number; hooks?: DispatchHooks; firstAttempts?: FirstAttemptClaims },
): Promise<number> {
  let done = 0;
  const environments = options.firstAttempts?.environments ?? [];
  const room = options.firstAttempts?.room?.() ?? options.batchSize;
  // The sender holds all it may: no claims, and no workflow pass either (it could claim first attempts too).
  if (environments.length > 0 && room === 0) return 0;
  if (environments.length > 0) {
    const size = Math.min(room, options.batchSize);
    const { taken, dispatched, claimed } = await firstAttemptPass(orm, environments, size);
    if (claimed.length > 0) options.firstAttempts?.send(claimed);
    if (dispatched.length > 0) await options.hooks?.afterStarts?.(dispatched);
    done = dispatched.length;
    if (done >= size) return done;
    // The pass saw every environment's outbox, took less than it could and left no event for a workflow: the
    // workflow pass would only open and close an empty transaction (three statements after every event).
    if (taken < size && taken === done && ENVIRONMENTS.every((env) => environments.includes(env))) {
      return done;
    }
  }
  const rest = Math.min(options.batchSize - done, WORKFLOW_PASS);
  return done + (await workflowPass(orm, gateway, { ...options, batchSize: rest }));
}
