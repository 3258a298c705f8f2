import type { Environment } from '../platform/config/config.ts';
import type { DeliveryRef } from '../processes/webhook-delivery.ts';
import { type AttemptContext, attemptContextOf } from './delivery-records.ts';
import { TEST_EVENT_TYPE } from './test-event.ts';

/**
 * Creates the delivery rows of the outbox events `eventIds` (a SQL list or subquery), returning the new ones.
 * One row per subscribed endpoint: same company and environment, enabled, not deleted, subscribed to the type
 * (an empty list means every type) and existing when the event was recorded (not when it occurred: a chain
 * event's time is its block's, in whole seconds, and may precede an endpoint created just before). A test
 * event goes only to the endpoint it names (the endpoint API creates those born dispatched; this covers any
 * that are not). The unique (event_id, endpoint_id) makes a repeat insert nothing.
 */
export const createDeliveries = (eventIds: string) => `
  insert into webhook_deliveries as d
    (id, company_id, environment, event_id, endpoint_id, event_type, status, attempt_count, next_attempt_at,
     created_at, updated_at)
  select gen_random_uuid(), o.company_id, o.environment, o.id, e.id, o.event_type, 'pending', 0, now(),
         now(), now()
  from outbox_events o
  join webhook_endpoints e on e.company_id = o.company_id and e.environment = o.environment
  where o.id in (${eventIds}) and e.deleted_at is null and e.enabled
    and case when o.event_type = '${TEST_EVENT_TYPE}' then e.id::text = o.data->>'endpointId'
        else e.created_at <= o.recorded_at
          and (jsonb_array_length(e.event_types) = 0 or e.event_types @> jsonb_build_array(o.event_type))
        end
  on conflict (event_id, endpoint_id) do nothing
  returning d.id, d.event_id, d.endpoint_id, d.company_id, d.environment, d.event_type`;

/** A PostgreSQL array literal of uuids or environment names (values that need no quoting). */
export const pgArray = (values: readonly string[]) => `{${values.join(',')}}`;

/** A first attempt the dispatcher claimed (in flight), with the event and endpoint as they were then. */
export interface ClaimedFirstAttempt {
  delivery: DeliveryRef;
  context: AttemptContext;
}

/** A delivery row with ATTEMPT_CONTEXT_COLUMNS (delivery-records.ts) as a claimed attempt. */
export function claimedAttempt(row: Record<string, unknown>): ClaimedFirstAttempt {
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
