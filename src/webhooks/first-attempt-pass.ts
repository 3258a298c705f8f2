import type { Environment } from '../platform/config/config.ts';
import type { Orm } from '../platform/db/orm.ts';
import { ATTEMPT_CONTEXT_COLUMNS } from './delivery-records.ts';
import { type ClaimedFirstAttempt, claimedAttempt, createDeliveries, pgArray } from './dispatch-rows.ts';

// One pass in one statement over events of the environments the dispatcher sends first attempts for. `pending`: the events' new deliveries (from the
// insert) and the pending ones an earlier pass left (visible in the statement's snapshot; never the same rows).
// A claim exists at most once per delivery (the unique (delivery_id, attempt)), so no attempt is sent twice.
// An event with a delivery that needs a workflow (one an earlier pass of a dispatcher without first attempts
// left) stays in the outbox for the transactional pass (outbox-dispatch.ts). Every event taken comes back at
// least once (`taken_event_id`, `dispatched`), with one row per claimed delivery and what its attempt needs
// (the event, the endpoint as it is now), or one row of its own when none of its deliveries was claimed. (Not
// one join of the events with the outcome: the planner, told each CTE holds one row, looped over both, which
// grew with the square of the pass.)
const FIRST_ATTEMPT_PASS = `
  with events as (
    select id from outbox_events where dispatched_at is null and environment = any(?::text[])
    order by occurred_at, id limit ? for no key update skip locked
  ),
  created as (${createDeliveries('select id from events')}),
  pending as (
    select c.*, 0 as attempt_count, true as fresh from created c
    union all
    select d.id, d.event_id, d.endpoint_id, d.company_id, d.environment, d.event_type, d.attempt_count, false
    from webhook_deliveries d where d.event_id in (select id from events) and d.status = 'pending'
  ),
  claimed as (
    insert into webhook_attempts (delivery_id, attempt, started_at, duration_ms, in_flight)
    select p.id, 1, now(), 0, true from pending p
    where p.fresh or (p.attempt_count = 0
                      and not exists (select 1 from webhook_attempts a where a.delivery_id = p.id))
    on conflict (delivery_id, attempt) do nothing
    returning delivery_id
  ),
  outcome as (
    select p.*, c.delivery_id is not null as claimed,
           c.delivery_id is null
             and not exists (select 1 from webhook_attempts a where a.delivery_id = p.id and a.in_flight)
             as needs_workflow
    from pending p left join claimed c on c.delivery_id = p.id
  ),
  marked as (
    update outbox_events set dispatched_at = now()
    where id in (select id from events)
      and id not in (select event_id from outcome where needs_workflow)
  )
  select r.event_id as taken_event_id, r.event_id not in (select event_id from outcome where needs_workflow)
           as dispatched,
         r.id as delivery_id, r.endpoint_id, r.company_id, r.environment, true as claimed, ${ATTEMPT_CONTEXT_COLUMNS}
  from outcome r
  left join outbox_events o on o.id = r.event_id
  left join webhook_endpoints e on e.id = r.endpoint_id and e.company_id = r.company_id
    and e.environment = r.environment
  where r.claimed
  union all
  select ev.id, ev.id not in (select event_id from outcome where needs_workflow),
         null, null, null, null, false, ${ATTEMPT_CONTEXT_COLUMNS}
  from events ev
  left join outbox_events o on false
  left join webhook_endpoints e on false
  where ev.id not in (select event_id from outcome where claimed)`;

/**
 * The dispatcher's pass over events of the environments it sends first attempts for, in one statement
 * committed on its own (FIRST_ATTEMPT_PASS): take up to `batchSize` undispatched events, oldest first (`for no
 * key update skip locked`: another dispatcher takes other events), create their deliveries, claim attempt 1
 * of each and mark the events dispatched. A crash before the commit leaves everything as it was; after it, the
 * claims wait for the sweep (first-attempts.ts). Returns how many events it took, the ones it dispatched (not
 * those left for a workflow) and the claimed attempts.
 */
export async function firstAttemptPass(
  orm: Orm,
  environments: readonly Environment[],
  batchSize: number,
): Promise<{ taken: number; dispatched: string[]; claimed: ClaimedFirstAttempt[] }> {
  const rows = await orm.em
    .fork({ disableContextResolution: true })
    .execute<Record<string, unknown>[]>(FIRST_ATTEMPT_PASS, [pgArray(environments), batchSize]);
  const taken = new Set<string>();
  const dispatched = new Set<string>();
  for (const row of rows) {
    taken.add(row.taken_event_id as string);
    if (row.dispatched) dispatched.add(row.taken_event_id as string);
  }
  return {
    taken: taken.size,
    dispatched: [...dispatched],
    claimed: rows.filter((row) => row.claimed).map(claimedAttempt),
  };
}
