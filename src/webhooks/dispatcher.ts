import pg from 'pg';
import type { WorkflowGateway } from '../adapters/temporal/start.ts';
import type { Orm } from '../platform/db/orm.ts';
import type { Logger } from '../platform/logging/logger.ts';
import type { FirstAttemptSender } from './first-attempts.ts';
import { type DispatchHooks, dispatchOutboxBatch } from './outbox-dispatch.ts';

export interface OutboxDispatcherOptions {
  orm: Orm;
  gateway: WorkflowGateway;
  logger: Logger;
  /**
   * The most events one pass takes (default 400). After a quiet spell a pass takes FIRST_PASS, and each full
   * pass doubles the next, so the first deliveries leave soon and a deep outbox goes in few, large statements.
   */
  batchSize?: number;
  /** Longest wait between passes when no notification arrives. */
  pollIntervalMs?: number;
  /** LISTEN for the outbox trigger's notifications (default true); polling alone still works. */
  listen?: boolean;
  hooks?: DispatchHooks;
  /**
   * Makes each delivery's first attempt in this process (for the environments it has senders for) and
   * starts a retry workflow only when it fails; without it every delivery runs as a workflow from the start.
   */
  firstAttempts?: FirstAttemptSender;
}

export interface OutboxDispatcher {
  /** Finishes the pass in progress, then stops. */
  stop(): Promise<void>;
}

const CHANNEL = 'outbox_events';
const LISTEN_RETRY_MS = 5_000;
const ERROR_BACKOFF_MS = 2_000;
const SWEEP_INTERVAL_MS = 60_000;
const FULL_SENDER_WAIT_MS = 5;
const FIRST_PASS = 25;
const ROOM_WORTH_A_PASS = 100;

/**
 * Runs in the worker process: passes over the outbox (see dispatchOutboxBatch) as soon as an event
 * commits (LISTEN/NOTIFY) and at least every `pollIntervalMs`; back-to-back while full batches come. With
 * `firstAttempts`, it also sweeps every minute for deliveries a crash left between claim and retry workflow.
 * Several dispatchers may run at once (one per worker process): they share the work, never duplicate it.
 */
export function startOutboxDispatcher(options: OutboxDispatcherOptions): OutboxDispatcher {
  const batchSize = options.batchSize ?? 400;
  const firstPass = Math.min(FIRST_PASS, batchSize);
  const pollIntervalMs = options.pollIntervalMs ?? 1_000;
  const logger = options.logger.child({ component: 'outbox-dispatcher' });
  let stopping = false;
  let pending = false;
  let wake: (() => void) | undefined;
  let stopWaiting: (() => void) | undefined;
  const nudge = () => {
    pending = true;
    wake?.();
  };
  /** Waits `ms`, or less when stopping or (if `wakeOnEvent`) when an event has committed meanwhile. */
  const pause = (ms: number, wakeOnEvent: boolean) =>
    new Promise<void>((resolve) => {
      if ((wakeOnEvent && pending) || stopping) return resolve();
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        wake = undefined;
        stopWaiting = undefined;
        resolve();
      }
      wake = wakeOnEvent ? done : undefined;
      stopWaiting = done;
    });

  let listener: pg.Client | undefined;
  let lastListenTry = 0;
  const ensureListener = async () => {
    if (options.listen === false || listener || Date.now() - lastListenTry < LISTEN_RETRY_MS) return;
    lastListenTry = Date.now();
    const client = new pg.Client({
      connectionString: options.orm.config.get('clientUrl'),
      connectionTimeoutMillis: 5_000,
    });
    client.on('notification', nudge);
    client.on('error', (error) => {
      logger.warn({ err: error }, 'outbox LISTEN connection lost; polling until it is back');
      if (listener === client) listener = undefined;
      client.end().catch(() => {});
    });
    try {
      await client.connect();
      await client.query(`listen ${CHANNEL}`);
      listener = client;
    } catch (error) {
      logger.warn({ err: error }, 'cannot LISTEN for outbox events; polling only for now');
      await client.end().catch(() => {});
    }
  };

  let lastSweep = 0;
  const sweep = async () => {
    if (!options.firstAttempts || Date.now() - lastSweep < SWEEP_INTERVAL_MS) return;
    lastSweep = Date.now();
    try {
      await options.firstAttempts.sweep();
    } catch (error) {
      logger.warn({ err: error }, 'webhook recovery sweep failed; trying again later');
    }
  };

  /** The next pass's size: small after a quiet spell, doubled after each full pass up to `batchSize`. */
  let size = firstPass;
  const loop = (async () => {
    while (!stopping) {
      await ensureListener();
      await sweep();
      // A sender that holds (nearly) all the claims it may frees room as its attempts finish: look again soon
      // rather than claim a handful at a time.
      const room = options.firstAttempts?.room?.() ?? batchSize;
      if (room < Math.min(size, ROOM_WORTH_A_PASS)) {
        await pause(FULL_SENDER_WAIT_MS, false);
        continue;
      }
      pending = false;
      let dispatched = 0;
      try {
        dispatched = await dispatchOutboxBatch(options.orm, options.gateway, {
          batchSize: size,
          hooks: options.hooks,
          firstAttempts: options.firstAttempts,
        });
        if (dispatched > 0) logger.debug({ dispatched }, 'dispatched outbox events');
      } catch (error) {
        if (stopping) break;
        logger.error({ err: error }, 'outbox dispatch failed; retrying');
        await pause(ERROR_BACKOFF_MS, false);
        continue;
      }
      // Fewer events than the pass could take (a batch, or the sender's room when that was less): the outbox
      // is empty for now. A pass the room cut short goes on at once.
      if (dispatched < Math.min(size, room)) {
        size = firstPass;
        await pause(pollIntervalMs, true);
      } else size = Math.min(size * 2, batchSize);
    }
    await listener?.end().catch(() => {});
    await options.firstAttempts?.drain();
  })();

  return {
    async stop() {
      stopping = true;
      stopWaiting?.();
      await loop;
    },
  };
}
