import type { Pool, QueryConfig, QueryResultRow } from 'pg';

/**
 * Identical reads that are still waiting for a pooled connection share one execution. A read joins another
 * only while that one has not started (no connection yet, so no statement sent and no snapshot taken): its
 * answer comes from a statement that starts after it arrived, so it sees every write committed before it
 * arrived, exactly as a read of its own would. Once a read has its connection, a new arrival starts its own.
 * When the pool is free nothing is shared; when it is saturated (a scanned product's passport read by many
 * phones at once), the queue holds one read per passport instead of one per request.
 * Callers that share a read get the same row objects: they must not change them.
 */
export class CoalescedReads {
  readonly #waiting = new Map<string, Promise<unknown[]>>();

  read<T extends QueryResultRow>(pool: Pool, key: string, query: QueryConfig): Promise<T[]> {
    const waiting = this.#waiting.get(key);
    if (waiting) return waiting as Promise<T[]>;
    const started = () => {
      if (this.#waiting.get(key) === run) this.#waiting.delete(key);
    };
    const run: Promise<T[]> = (async () => {
      // Settled after the map holds `run` (an await always yields first), so `started` finds it.
      const client = await pool.connect().finally(started);
      try {
        const result = await client.query<T>(query);
        client.release();
        return result.rows;
      } catch (error) {
        // As pg's own pool.query: a client whose query failed is discarded rather than reused.
        client.release(error as Error);
        throw error;
      }
    })();
    this.#waiting.set(key, run);
    return run;
  }
}
