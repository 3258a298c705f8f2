import type { EntityManager } from '@mikro-orm/postgresql';
import { type AttemptResultRow, recordAttempts } from './delivery-records.ts';

/** Most attempts one statement records. */
const MAX_BATCH = 500;

export interface BatchedRecords {
  /** Resolves once the attempt's record has committed; rejects when it could not be written. */
  record(row: AttemptResultRow): Promise<void>;
}

interface Waiting {
  row: AttemptResultRow;
  resolve: () => void;
  reject: (error: unknown) => void;
}

/**
 * Records attempts as they finish, many per statement (recordAttempts): while one batch is being written the
 * next ones gather, so under load each statement carries every outcome that came in meanwhile, and a lone
 * attempt is written at once (after the current turn of the event loop). A batch that fails is written again one attempt at a time, so one bad row
 * fails only its own attempt.
 */
export function batchedRecords(em: () => EntityManager): BatchedRecords {
  let waiting: Waiting[] = [];
  let writing = false;

  async function write(batch: Waiting[]): Promise<void> {
    try {
      await recordAttempts(
        em(),
        batch.map((entry) => entry.row),
      );
      for (const entry of batch) entry.resolve();
    } catch (error) {
      if (batch.length === 1) return batch[0]!.reject(error);
      for (const entry of batch) await write([entry]);
    }
  }

  async function flush(): Promise<void> {
    try {
      while (waiting.length > 0) {
        const batch = waiting.slice(0, MAX_BATCH);
        waiting = waiting.slice(MAX_BATCH);
        await write(batch);
      }
    } finally {
      writing = false;
    }
  }

  return {
    record(row) {
      return new Promise<void>((resolve, reject) => {
        waiting.push({ row, resolve, reject });
        if (writing) return;
        writing = true;
        // After the I/O callbacks of this turn, so the answers that came in together share a statement.
        setImmediate(() => void flush());
      });
    },
  };
}
