import type { WorkflowGateway } from '../adapters/temporal/start.ts';
import type { Environment } from '../platform/config/config.ts';
import type { Orm } from '../platform/db/orm.ts';
import { scopedEntityManager } from '../platform/db/tenant-scope.ts';
import type { Logger } from '../platform/logging/logger.ts';
import { countWebhookAttempt } from '../platform/observability/metrics.ts';
import { ATTEMPT_DELAYS_MS, type DeliveryRef } from '../processes/webhook-delivery.ts';
import { makeAttempt, type WebhookSender } from './attempt-delivery.ts';
import { batchedRecords } from './batched-records.ts';
import { deadLetterRow } from './delivery-records.ts';
import type { ClaimedFirstAttempt, FirstAttemptClaims } from './outbox-dispatch.ts';
import { MAX_PER_RECEIVER, receiverOf } from './receiver-agents.ts';
import { startDeliveryWorkflow } from './start-delivery.ts';

export interface FirstAttemptSender extends FirstAttemptClaims {
  /** Hands over to retry workflows what a crash left behind (see RECOVERABLE); returns how many. */
  sweep(): Promise<number>;
  /** Resolves once every attempt handed over so far has finished. */
  drain(): Promise<void>;
}

/**
 * POSTs in flight at once per process, as many as the worker's activity slots (what the workflow path
 * allowed), at most MAX_PER_RECEIVER of them to one receiver: a few slow receivers do not hold the others up.
 */
const MAX_SENDING = 100;
/**
 * Attempts posted whose outcome is still being recorded: a POST's slot is free as soon as its answer is in, so
 * the next POST does not wait for a database write (issue 39: deliveries at the wire's rate); this bounds how
 * far the records may trail when the database is the slower side.
 */
const MAX_RECORDING = 200;
/**
 * Claimed attempts this process holds at most (waiting or under way): the dispatcher claims no more until
 * some finish, so a claim rarely waits here long enough to look abandoned to another process's sweep.
 */
const MAX_HELD = 400;
/** An in-flight claim older than this was left by a process that stopped (attempts time out long before). */
const STALE_CLAIM = '2 minutes';

// What a crash leaves: a claimed attempt whose outcome was never recorded, or a failed first attempt whose
// retry workflow never started (its next attempt is long overdue). Starting the workflow is safe when one
// exists already: dispatch mode joins a running one and starts nothing after a closed one.
const RECOVERABLE = `
  select d.id, d.event_id, d.endpoint_id, d.company_id, d.environment, d.event_type,
         exists (select 1 from webhook_attempts a where a.delivery_id = d.id and a.in_flight) as in_flight
  from webhook_deliveries d
  where d.status = 'pending' and d.environment in (?)
    and (exists (select 1 from webhook_attempts a where a.delivery_id = d.id and a.in_flight
                   and a.started_at < now() - interval '${STALE_CLAIM}')
         or (d.attempt_count = 1 and d.next_attempt_at < now() - interval '${STALE_CLAIM}'))
  order by d.created_at
  limit 500`;

// The claimed attempt's outcome is unknown (the POST may or may not have left): it counts as a failed
// attempt, and the retry workflow goes on with attempt 2 after the schedule's wait.
const UNKNOWN_OUTCOME = `
  with attempt as (
    update webhook_attempts set in_flight = false,
      error = 'the dispatcher stopped before this attempt''s outcome was recorded'
    where delivery_id = ? and in_flight
  )
  update webhook_deliveries set attempt_count = greatest(attempt_count, 1),
    next_attempt_at = now() + ?::int * interval '1 millisecond', updated_at = now()
  where id = ? and status = 'pending'`;

/**
 * Sends the first attempts the outbox dispatcher claimed: each is one signed POST (makeAttempt), its outcome
 * recorded with others that finished meanwhile in one statement (batched-records.ts); a failed one starts the
 * delivery's retry workflow, which waits the schedule's 5 minutes before attempt 2; one that can never be sent
 * is dead-lettered. Claimed attempts wait in one queue per receiver and are taken from the receivers in turn.
 * This spares a workflow for every delivery a receiver accepts at once, which is nearly all of them.
 */
export function firstAttemptSender(options: {
  orm: Orm;
  gateway: WorkflowGateway;
  logger: Logger;
  senders: Partial<Record<Environment, WebhookSender>>;
}): FirstAttemptSender {
  const logger = options.logger.child({ component: 'webhook-first-attempts' });
  const environments = Object.keys(options.senders) as Environment[];
  const records = batchedRecords(() => options.orm.em.fork({ disableContextResolution: true }));
  /** Claimed attempts not started yet, by receiver, in the order the receivers take turns. */
  const waiting = new Map<string, ClaimedFirstAttempt[]>();
  let queued = 0;
  /** POSTs under way, by receiver. */
  const sendingTo = new Map<string, number>();
  /** Attempts started and not finished (recorded, and retried or dead-lettered where they must be). */
  let inFlight = 0;
  /** Of those, the ones whose POST is not over yet. */
  let sending = 0;
  let idle: (() => void)[] = [];
  /** Deliveries whose claimed attempt this process holds: its sweep leaves them alone, however old. */
  const held = new Set<string>();
  let pumpQueued = false;

  const retryLater = (delivery: DeliveryRef) =>
    startDeliveryWorkflow(options.gateway, delivery, 'dispatch', { firstAttemptMade: true });

  async function attempt({ delivery, context }: ClaimedFirstAttempt, posted: () => void): Promise<void> {
    const { outcome, record } = await makeAttempt(
      options.senders[delivery.environment]!,
      { delivery, deliveryId: delivery.id, attempt: 1, nextAttemptInMs: ATTEMPT_DELAYS_MS[1] },
      context,
    );
    posted();
    await records.record(record);
    countWebhookAttempt(outcome.result);
    if (outcome.result === 'failed') await retryLater(delivery);
    if (outcome.result === 'undeliverable') {
      const em = scopedEntityManager(options.orm.em, {
        companyId: delivery.companyId,
        environment: delivery.environment,
      });
      await deadLetterRow(em, delivery, delivery.id);
    }
  }

  function start(next: ClaimedFirstAttempt, receiver: string): void {
    inFlight++;
    sending++;
    sendingTo.set(receiver, (sendingTo.get(receiver) ?? 0) + 1);
    let postOver = false;
    const posted = () => {
      if (postOver) return;
      postOver = true;
      sending--;
      const left = sendingTo.get(receiver)! - 1;
      if (left === 0) sendingTo.delete(receiver);
      else sendingTo.set(receiver, left);
      pump();
    };
    attempt(next, posted)
      .catch((error) =>
        // The claim (or the recorded failure) stays: the sweep hands the delivery to a retry workflow.
        logger.warn({ err: error, deliveryId: next.delivery.id }, 'first webhook attempt did not finish'),
      )
      .finally(() => {
        held.delete(next.delivery.id);
        inFlight--;
        posted();
        pump();
        if (inFlight === 0 && queued === 0) {
          for (const resolve of idle) resolve();
          idle = [];
        }
      });
  }

  const roomToSend = () => sending < MAX_SENDING && inFlight - sending < MAX_RECORDING;

  function pump(): void {
    // A receiver that gets an attempt goes to the back of the turn order; one at its limit is passed over.
    for (const [receiver, attempts] of waiting) {
      if (!roomToSend()) return;
      if ((sendingTo.get(receiver) ?? 0) >= MAX_PER_RECEIVER) continue;
      const next = attempts.shift()!;
      queued--;
      waiting.delete(receiver);
      if (attempts.length > 0) waiting.set(receiver, attempts);
      start(next, receiver);
    }
  }

  return {
    environments,
    room: () => Math.max(0, MAX_HELD - held.size),
    send(claimed) {
      for (const item of claimed) {
        held.add(item.delivery.id);
        const receiver = receiverOf(item.context.endpoint?.url ?? '');
        const attempts = waiting.get(receiver);
        if (attempts) attempts.push(item);
        else waiting.set(receiver, [item]);
        queued++;
      }
      // After this turn of the event loop: the dispatcher's next pass is on its way to the database first, so
      // it runs there while these attempts are signed and sent here.
      if (!pumpQueued) {
        pumpQueued = true;
        setImmediate(() => {
          pumpQueued = false;
          pump();
        });
      }
    },
    drain() {
      if (inFlight === 0 && queued === 0) return Promise.resolve();
      return new Promise((resolve) => idle.push(resolve));
    },
    async sweep() {
      if (environments.length === 0) return 0;
      const em = options.orm.em.fork({ disableContextResolution: true });
      const rows = (
        await em.execute<(Record<string, string> & { in_flight: boolean })[]>(RECOVERABLE, [environments])
      ).filter((row) => !held.has(row.id!));
      for (const row of rows) {
        if (row.in_flight) await em.execute(UNKNOWN_OUTCOME, [row.id, ATTEMPT_DELAYS_MS[1], row.id]);
        await retryLater({
          id: row.id!,
          eventId: row.event_id!,
          endpointId: row.endpoint_id!,
          companyId: row.company_id!,
          environment: row.environment as Environment,
          eventType: row.event_type!,
        });
      }
      if (rows.length > 0)
        logger.info({ recovered: rows.length }, 'webhook deliveries handed to retry workflows');
      return rows.length;
    },
  };
}
