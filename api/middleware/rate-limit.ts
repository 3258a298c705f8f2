import type { AppContext } from '../context.ts';
import { Problem } from '../problem.ts';

interface Bucket {
  tokens: number;
  updatedAt: number;
}

/**
 * A token bucket per credential: `perMinute` requests per minute with bursts up to the same number.
 * In-process: with several API replicas each enforces its own share.
 */
export class RateLimiter {
  readonly #perMinute: number;
  readonly #buckets = new Map<string, Bucket>();

  constructor(perMinute: number) {
    this.#perMinute = perMinute;
  }

  take(ctx: AppContext, key: string): void {
    if (this.#perMinute === 0) return;
    const now = Date.now();
    const bucket = this.#buckets.get(key) ?? { tokens: this.#perMinute, updatedAt: now };
    bucket.tokens = Math.min(
      this.#perMinute,
      bucket.tokens + ((now - bucket.updatedAt) / 60_000) * this.#perMinute,
    );
    bucket.updatedAt = now;
    this.#buckets.set(key, bucket);
    if (this.#buckets.size > 100_000) this.#evictFull(now);
    ctx.set('RateLimit-Limit', String(this.#perMinute));
    if (bucket.tokens < 1) {
      const retryAfter = Math.ceil(((1 - bucket.tokens) * 60) / this.#perMinute);
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
    bucket.tokens -= 1;
    ctx.set('RateLimit-Remaining', String(Math.floor(bucket.tokens)));
  }

  #evictFull(now: number): void {
    for (const [key, bucket] of this.#buckets) {
      if (now - bucket.updatedAt > 60_000) this.#buckets.delete(key);
    }
  }
}
