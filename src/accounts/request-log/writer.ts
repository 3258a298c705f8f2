import type { EntityManager } from '@mikro-orm/postgresql';
import type { RequestLogConfig } from '../../platform/config/request-log-env.ts';
import type { Logger } from '../../platform/logging/logger.ts';
import { countRequestLogEntries } from '../../platform/observability/metrics.ts';
import type { RequestLogEntry } from './entry.ts';
import { insertEntries, trimToCap } from './store.ts';

/** Entries written per statement. */
const BATCH = 200;
/** Entries waiting at most; beyond, new ones are dropped (and counted) rather than grow memory. */
const MAX_QUEUED = 10_000;
/** How long an entry waits for others to share its insert. */
const FLUSH_AFTER_MS = 250;

export interface RequestLogWriterOptions {
  em: () => EntityManager;
  logger: Logger;
  settings: RequestLogConfig;
}

/**
 * Writes request log entries off the request's path: `add` only queues; batches are inserted after a short
 * wait, and a company's rows beyond the cap are trimmed every twentieth of the cap. A failed write is logged and counted
 * (dpp_request_log_entries_total{outcome="failed"}), never seen by a request. Entries older than the
 * retention are purged by the worker (purge.ts). The timer keeps no process alive; up to one batch may be lost
 * when the process ends.
 */
export class RequestLogWriter {
  /** Entries, or functions that build them (their bodies are redacted when the batch is written). */
  private queue: (RequestLogEntry | (() => RequestLogEntry))[] = [];
  private timer: NodeJS.Timeout | undefined;
  private writing: Promise<void> = Promise.resolve();
  /** Entries written per company and environment since their last trim. */
  private readonly sinceTrim = new Map<string, number>();

  private readonly options: RequestLogWriterOptions;

  constructor(options: RequestLogWriterOptions) {
    this.options = options;
  }

  add(entry: RequestLogEntry | (() => RequestLogEntry)): void {
    if (this.queue.length >= MAX_QUEUED) {
      countRequestLogEntries('dropped', 1);
      return;
    }
    this.queue.push(entry);
    if (this.queue.length >= BATCH) this.schedule(0);
    else this.schedule(FLUSH_AFTER_MS);
  }

  private schedule(delayMs: number): void {
    if (this.timer && delayMs > 0) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.flush();
    }, delayMs);
    this.timer.unref();
  }

  /** Writes everything queued (one batch after another); resolves when written or failed. */
  flush(): Promise<void> {
    this.writing = this.writing.then(async () => {
      while (this.queue.length > 0) await this.writeBatch(this.queue.splice(0, BATCH));
    });
    return this.writing;
  }

  private async writeBatch(queued: (RequestLogEntry | (() => RequestLogEntry))[]): Promise<void> {
    const batch: RequestLogEntry[] = [];
    for (const item of queued) {
      try {
        batch.push(typeof item === 'function' ? item() : item);
      } catch (error) {
        countRequestLogEntries('failed', 1);
        this.options.logger.warn({ err: error }, 'building a request log entry failed');
      }
    }
    const em = this.options.em();
    try {
      await insertEntries(em, batch);
      countRequestLogEntries('written', batch.length);
    } catch (error) {
      countRequestLogEntries('failed', batch.length);
      this.options.logger.warn({ err: error, entries: batch.length }, 'writing request log entries failed');
      return;
    }
    // A scope is trimmed once it got a twentieth of the cap since its last trim here: a log may exceed its
    // cap by that much per API process for a while, and the trim's scan is paid once per many entries.
    const cap = this.options.settings.maxRowsPerCompany;
    const due = new Map<string, RequestLogEntry>();
    for (const entry of batch) {
      const scope = `${entry.companyId}/${entry.environment}`;
      const since = (this.sinceTrim.get(scope) ?? 0) + 1;
      this.sinceTrim.set(scope, since);
      if (since >= Math.ceil(cap / 20)) due.set(scope, entry);
    }
    for (const [scope, entry] of due) {
      this.sinceTrim.delete(scope);
      try {
        await trimToCap(em, entry, cap);
      } catch (error) {
        this.options.logger.warn({ err: error }, 'trimming the request log to its cap failed');
      }
    }
  }

  /** Writes what is queued. */
  async stop(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    await this.flush();
  }
}
