import type { MikroORM } from '@mikro-orm/postgresql';
import type { Logger } from '../../src/platform/logging/logger.ts';
import type { AppContext } from '../context.ts';
import { Problem } from '../problem.ts';

/** What one request's take left in its bucket. */
export interface BucketTake {
  admitted: boolean;
  /** Tokens left after the take (fractional: the bucket refills continuously). */
  tokens: number;
}

/** Where buckets live: this process (tests, fallback) or PostgreSQL (shared by every API process). */
export interface BucketStore {
  take(key: string, perMinute: number): Promise<BucketTake>;
}

interface Bucket {
  tokens: number;
  updatedAt: number;
}

/** Buckets in this process's memory: each API process enforces the limit on its own. */
export class LocalBuckets implements BucketStore {
  readonly #buckets = new Map<string, Bucket>();

  async take(key: string, perMinute: number): Promise<BucketTake> {
    return this.takeNow(key, perMinute);
  }

  takeNow(key: string, perMinute: number): BucketTake {
    const now = Date.now();
    const bucket = this.#buckets.get(key) ?? { tokens: perMinute, updatedAt: now };
    bucket.tokens = Math.min(perMinute, bucket.tokens + ((now - bucket.updatedAt) / 60_000) * perMinute);
    bucket.updatedAt = now;
    this.#buckets.set(key, bucket);
    if (this.#buckets.size > 100_000) this.#evictFull(now);
    if (bucket.tokens < 1) return { admitted: false, tokens: bucket.tokens };
    bucket.tokens -= 1;
    return { admitted: true, tokens: bucket.tokens };
  }

  #evictFull(now: number): void {
    for (const [key, bucket] of this.#buckets) {
      if (now - bucket.updatedAt > 60_000) this.#buckets.delete(key);
    }
  }
}

/**
 * One statement per request: the bucket is created full minus this request, or refilled for the time since
 * its last take (the database's clock, so API hosts need not agree on the time) and spent if a whole token is
 * there. SET expressions read the row as it was before the update, so `admitted` and `tokens` agree; the row
 * lock serialises concurrent takes of one key across processes.
 */
/**
 * The row's tokens refilled up to this statement's time. Concurrent takes of one key may get the row lock in
 * another order than they started: a take that started before the last update refills nothing (never a
 * negative amount) and leaves the later update time in place, so the refill is counted once.
 */
const REFILLED = `least(excluded.per_minute,
    b.tokens + greatest(0, extract(epoch from now() - b.updated_at)) * excluded.per_minute / 60.0)`;

const TAKE = `insert into rate_limit_buckets as b (key, per_minute, tokens, admitted, updated_at)
  values (?, ?, ?::double precision - 1, true, now())
  on conflict (key) do update set
    per_minute = excluded.per_minute,
    admitted = ${REFILLED} >= 1,
    tokens = ${REFILLED} - case when ${REFILLED} >= 1 then 1 else 0 end,
    updated_at = greatest(b.updated_at, now())
  returning admitted, tokens`;

/** A bucket untouched for a minute is full again: its row can go (the next take recreates it full). */
const SWEEP = `delete from rate_limit_buckets where updated_at < now() - interval '1 minute'`;
const SWEEP_EVERY_MS = 60_000;

/**
 * Buckets in PostgreSQL (table rate_limit_buckets), shared by every API process on the database. When the
 * database cannot be reached the take falls back to this process's own buckets, so an outage neither lifts
 * the limit nor turns into a refusal of its own (the request then meets the outage where it needs data).
 */
export class PostgresBuckets implements BucketStore {
  readonly #orm: MikroORM;
  readonly #logger: Logger | undefined;
  readonly #fallback = new LocalBuckets();
  readonly #sweepEveryMs: number;
  #lastSweep = Date.now();
  #lastWarning = 0;

  constructor(orm: MikroORM, logger?: Logger, options: { sweepEveryMs?: number } = {}) {
    this.#orm = orm;
    this.#logger = logger;
    this.#sweepEveryMs = options.sweepEveryMs ?? SWEEP_EVERY_MS;
  }

  async take(key: string, perMinute: number): Promise<BucketTake> {
    let rows: { admitted: boolean; tokens: number }[];
    try {
      rows = await this.#orm.em.getConnection().execute(TAKE, [key, perMinute, perMinute]);
    } catch (error) {
      const now = Date.now();
      if (now - this.#lastWarning > 60_000) {
        this.#lastWarning = now;
        this.#logger?.warn(
          { err: (error as Error).message },
          'rate limit: database unreachable, limiting per process meanwhile',
        );
      }
      return this.#fallback.takeNow(key, perMinute);
    }
    this.#sweepNowAndThen();
    const row = rows[0]!;
    return { admitted: row.admitted, tokens: Number(row.tokens) };
  }

  #sweepNowAndThen(): void {
    const now = Date.now();
    if (now - this.#lastSweep < this.#sweepEveryMs) return;
    this.#lastSweep = now;
    this.#orm.em
      .getConnection()
      .execute(SWEEP)
      .catch(() => {});
  }
}

/**
 * A token bucket per credential: `perMinute` requests per minute with bursts up to the same number. With
 * PostgresBuckets every API process spends from the same buckets; `name` keeps limiters with different rates
 * (API calls, public pages) apart in one store.
 */
export class RateLimiter {
  readonly #perMinute: number;
  readonly #store: BucketStore;
  readonly #name: string;

  constructor(perMinute: number, store: BucketStore = new LocalBuckets(), name = 'api') {
    this.#perMinute = perMinute;
    this.#store = store;
    this.#name = name;
  }

  async take(ctx: AppContext, key: string): Promise<void> {
    if (this.#perMinute === 0) return;
    const { admitted, tokens } = await this.#store.take(`${this.#name}:${key}`, this.#perMinute);
    ctx.set('RateLimit-Limit', String(this.#perMinute));
    if (!admitted) {
      const retryAfter = Math.max(1, Math.ceil(((1 - tokens) * 60) / this.#perMinute));
      ctx.set('RateLimit-Remaining', '0');
      throw new Problem(
        429,
        'rate_limited',
        `Too many requests: the limit is ${this.#perMinute} per minute.`,
        {
          headers: { 'Retry-After': String(retryAfter) },
          extra: { retryAfterSeconds: retryAfter },
        },
      );
    }
    ctx.set('RateLimit-Remaining', String(Math.floor(tokens)));
  }
}
