/**
 * Records one genuine SUN reading of a chip, in one statement: the counter is accepted when greater than the
 * last accepted one (one conditional UPDATE, so of two concurrent readings with one counter exactly one wins),
 * else the reading is a presentation of a used URL and is counted in tap_reopenings. The signals the reading
 * raises (docs/signals.md) are upserted by (chip, type, occurrence), so an ongoing occurrence only updates its
 * evidence; a newly raised one the company is notified of queues asset.suspicious_activity in the outbox.
 *
 * The statement is the PL/pgSQL function record_tap (migration 20261128500001, with the settings' defaults of
 * signal-types.ts written in), so its plan is kept per session instead of planned on every tap.
 *
 * Parameters: company, environment, chip id, counter, reference, time, client hash, tamper status (json).
 */
export const RECORD_TAP =
  'select * from record_tap(?::uuid, ?::text, ?::int, ?::int, ?::text, ?::timestamptz, ?::text, ?::jsonb)';

export interface RecordedTap {
  accepted: boolean;
  /** The chip's accepted counter as this statement's snapshot saw it (a refused reading's evidence). */
  sun_counter: number | null;
  sun_counter_ref: string | null;
  /** A used URL's presentations so far, this one included (its first reading counted), and since when. */
  openings: number | null;
  first_at: Date | string | null;
  notified: number;
}
