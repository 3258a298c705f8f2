import { Migration } from '@mikro-orm/migrations';

/**
 * The API's rate limit shared by every API process (issue 24): one token bucket per limiter and client key,
 * taken and refilled by a single upsert per request (api/middleware/rate-limit.ts).
 *
 * Unlogged: a bucket is worth a minute at most, so the table skips the write-ahead log (cheaper per request).
 * After a crash or a failover to a standby the table starts empty, i.e. every client gets a full bucket once;
 * no other data depends on it. Only the primary key is indexed and rows leave room on their page (fillfactor),
 * so the per-request update stays a heap-only tuple update.
 */
export class Migration20261125300000_rate_limit_buckets extends Migration {
  override up(): void {
    this.addSql(`create unlogged table rate_limit_buckets (
      key text primary key,
      per_minute integer not null,
      tokens double precision not null,
      admitted boolean not null,
      updated_at timestamptz not null
    ) with (fillfactor = 70);`);
  }

  override down(): void {
    this.addSql('drop table if exists rate_limit_buckets;');
  }
}
