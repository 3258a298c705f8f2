import type { Orm } from '../db/orm.ts';
import type { WorkflowGateway } from '../temporal/start.ts';
import type { DeliveryRef } from './delivery-types.ts';
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

/**
 * One dispatcher pass over up to `batchSize` undispatched outbox events, oldest first:
 * 1. lock them (`for no key update skip locked`: another dispatcher takes other events);
 * 2. create their delivery rows, committed on their own before any workflow can look for them;
 * 3. start one delivery workflow per pending delivery (`dispatch`: a repeat joins or does nothing);
 * 4. mark the events dispatched and commit, releasing the locks.
 * A crash anywhere leaves the events undispatched; the next pass repeats 2–4 without duplicating
 * anything. Returns the number of events dispatched.
 */
export async function dispatchOutboxBatch(
  orm: Orm,
  gateway: WorkflowGateway,
  options: { batchSize: number; hooks?: DispatchHooks },
): Promise<number> {
  return orm.em.fork({ disableContextResolution: true }).transactional(async (tx) => {
    const events = await tx.execute<{ id: string }[]>(
      `select id from outbox_events where dispatched_at is null order by occurred_at, id limit ?
       for no key update skip locked`,
      [options.batchSize],
    );
    if (events.length === 0) return 0;
    const eventIds = events.map((event) => event.id);
    // The delivery rows' foreign keys take key-share locks on the events, which `no key update` allows.
    await orm.em.fork({ disableContextResolution: true }).execute(CREATE_DELIVERIES, [eventIds]);
    const deliveries = await tx.execute<DeliveryRow[]>(
      `select id, event_id, endpoint_id, company_id, environment, event_type from webhook_deliveries
       where event_id in (?) and status = 'pending'`,
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
}
