import type { WorkflowGateway } from '../adapters/temporal/start.ts';
import type { Environment } from '../platform/config/config.ts';
import type { Orm } from '../platform/db/orm.ts';
import type { DeliveryRef } from '../processes/webhook-delivery.ts';
import { ATTEMPT_CONTEXT_COLUMNS, type AttemptContext, attemptContextOf } from './delivery-records.ts';
import { startDeliveryWorkflow } from './start-delivery.ts';
import { TEST_EVENT_TYPE } from './test-event.ts';

export interface DispatchHooks {
  /** Runs after a batch's workflows are started, before its events are marked dispatched (crash tests). */
  afterStarts?: (eventIds: string[]) => Promise<void>;
}

const STARTS_IN_PARALLEL = 32;

// One row per subscribed endpoint: same company and environment, enabled, not deleted, subscribed to the
// type (an empty list means every type) and existing when the event was recorded (not when it occurred: a
// chain event's time is its block's, in whole seconds, and may precede an endpoint created just before). A test event goes only to
// the endpoint it names (the endpoint API creates those born dispatched; this covers any that are not). The unique (event_id, endpoint_id) makes a repeat insert nothing.
const CREATE_DELIVERIES = `
  insert into webhook_deliveries
    (id, company_id, environment, event_id, endpoint_id, event_type, status, attempt_count, next_attempt_at,
     created_at, updated_at)
  select gen_random_uuid(), o.company_id, o.environment, o.id, e.id, o.event_type, 'pending', 0, now(),
         now(), now()
  from outbox_events o
  join webhook_endpoints e on e.company_id = o.company_id and e.environment = o.environment
  where o.id in (?) and e.deleted_at is null and e.enabled
    and case when o.event_type = '${TEST_EVENT_TYPE}' then e.id::text = o.data->>'endpointId'
        else e.created_at <= o.recorded_at
          and (jsonb_array_length(e.event_types) = 0 or e.event_types @> jsonb_build_array(o.event_type))
        end
  on conflict (event_id, endpoint_id) do nothing`;

interface DeliveryRow {
  id: string;
  event_id: string;
  endpoint_id: string;
  company_id: string;
  environment: DeliveryRef['environment'];
  event_type: string;
}

async function inParallel<T>(items: T[], limit: number, run: (item: T) => Promise<unknown>): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < items.length) await run(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
}

/** A first attempt the dispatcher claimed (in flight), with the event and endpoint as they were then. */
export interface ClaimedFirstAttempt {
  delivery: DeliveryRef;
  context: AttemptContext;
}

export interface FirstAttemptClaims {
  /** The environments whose first attempts this dispatcher makes itself (it has their senders). */
  environments: Environment[];
  /** Receives the claimed attempts once their claim has committed; sends them without holding the pass. */
  send(claimed: ClaimedFirstAttempt[]): void;
}

// Attempt 1 of each pending, never-attempted delivery, claimed in flight; a claim exists at most once per
// delivery (the unique (delivery_id, attempt)), so no attempt is ever sent twice.
const CLAIM_FIRST_ATTEMPTS = `
  insert into webhook_attempts (delivery_id, attempt, started_at, duration_ms, in_flight)
  select d.id, 1, now(), 0, true from webhook_deliveries d
  where d.event_id in (?) and d.status = 'pending' and d.attempt_count = 0 and d.environment in (?)
    and not exists (select 1 from webhook_attempts a where a.delivery_id = d.id)
  on conflict (delivery_id, attempt) do nothing
  returning delivery_id`;

const CLAIMED_CONTEXTS = `
  select d.id as delivery_id, d.endpoint_id, d.company_id, d.environment, ${ATTEMPT_CONTEXT_COLUMNS}
  from webhook_deliveries d
  join outbox_events o on o.id = d.event_id
  left join webhook_endpoints e on e.id = d.endpoint_id and e.company_id = d.company_id
    and e.environment = d.environment
  where d.id in (?)`;

function claimedAttempt(row: Record<string, unknown>): ClaimedFirstAttempt {
  return {
    delivery: {
      id: row.delivery_id as string,
      eventId: row.event_id as string,
      endpointId: row.endpoint_id as string,
      companyId: row.company_id as string,
      environment: row.environment as Environment,
      eventType: row.event_type as string,
    },
    context: attemptContextOf(row),
  };
}

/**
 * One dispatcher pass over up to `batchSize` undispatched outbox events, oldest first:
 * 1. lock them (`for no key update skip locked`: another dispatcher takes other events);
 * 2. create their delivery rows, committed on their own before any workflow can look for them;
 * 3. claim attempt 1 of each new delivery in an environment this dispatcher sends for (`firstAttempts`);
 *    start one delivery workflow per other pending delivery (`dispatch`: a repeat joins or does nothing);
 * 4. mark the events dispatched and commit, releasing the locks; then hand the claimed attempts over to be
 *    sent (first-attempts.ts: a failure starts the retry workflow; a crash leaves the claim for the sweep).
 * A crash before the commit leaves the events undispatched and nothing claimed; the next pass repeats 2–4
 * without duplicating anything. Returns the number of events dispatched.
 */
export async function dispatchOutboxBatch(
  orm: Orm,
  gateway: WorkflowGateway,
  options: { batchSize: number; hooks?: DispatchHooks; firstAttempts?: FirstAttemptClaims },
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
    await orm.em.fork({ disableContextResolution: true }).execute(CREATE_DELIVERIES, [eventIds]);
    const environments = options.firstAttempts?.environments ?? [];
    const claimedIds = environments.length
      ? (await tx.execute<{ delivery_id: string }[]>(CLAIM_FIRST_ATTEMPTS, [eventIds, environments])).map(
          (row) => row.delivery_id,
        )
      : [];
    claimed = claimedIds.length
      ? (await tx.execute<Record<string, unknown>[]>(CLAIMED_CONTEXTS, [claimedIds])).map(claimedAttempt)
      : [];
    const deliveries = await tx.execute<DeliveryRow[]>(
      `select d.id, d.event_id, d.endpoint_id, d.company_id, d.environment, d.event_type
       from webhook_deliveries d
       where d.event_id in (?) and d.status = 'pending'
         and not exists (select 1 from webhook_attempts a where a.delivery_id = d.id and a.in_flight)`,
      [eventIds],
    );
    await inParallel(deliveries, STARTS_IN_PARALLEL, (row) =>
      startDeliveryWorkflow(
        gateway,
        {
          id: row.id,
          eventId: row.event_id,
          endpointId: row.endpoint_id,
          companyId: row.company_id,
          environment: row.environment,
          eventType: row.event_type,
        },
        'dispatch',
      ),
    );
    await options.hooks?.afterStarts?.(eventIds);
    await tx.execute('update outbox_events set dispatched_at = now() where id in (?)', [eventIds]);
    return eventIds.length;
  });
  if (claimed.length > 0) options.firstAttempts?.send(claimed);
  return dispatched;
}
