/**
 * Records one genuine SUN reading of a chip, in one statement: the counter is accepted when greater than the
 * last accepted one (one conditional UPDATE, so of two concurrent readings with one counter exactly one wins),
 * else the reading is a presentation of a used URL and is counted in tap_reopenings. The signals the reading
 * raises (docs/signals.md) are upserted by (chip, type, occurrence), so an ongoing occurrence only updates its
 * evidence; a newly raised one the company is notified of queues asset.suspicious_activity in the outbox.
 *
 * The statement is the PL/pgSQL function record_tap (migrations 20261128500001, 20261129200000 and 20261130400000,
 * with the settings' defaults of signal-types.ts written in), so its plans are kept per session instead of planned
 * on every tap, and it runs only the statements a reading needs (signals and outbox only when one is raised). It finds the chip by its UID (no row: not enrolled), and records nothing when the company's chip_keys row
 * is no longer the version the caller verified with (keys_changed).
 *
 * Parameters (bound by the database: executeBound): company, environment, chip UID, counter, reference, time, client hash, tamper status (json; used
 * for a TT chip only), version of the keys verified with (chip_keys.xmin, null for none).
 */
export const RECORD_TAP =
  'select * from record_tap($1::uuid, $2::text, $3::text, $4::int, $5::text, $6::timestamptz, $7::text, $8::jsonb, $9::text)';

export interface RecordedTap {
  chip_id: number;
  chip_type: string;
  keys_changed: boolean;
  /** Accepted now, or earlier by the same reference (a workflow's retry, read again after the refusal). */
  accepted: boolean;
  /** The chip's accepted counter as this statement's snapshot saw it (a refused reading's evidence). */
  sun_counter: number | null;
  sun_counter_ref: string | null;
  /** A used URL's presentations so far, this one included (its first reading counted), and since when. */
  openings: number | null;
  first_at: Date | string | null;
  notified: number;
}
