import { Migration } from '@mikro-orm/migrations';

/** Hours are binned from a fixed UTC origin, so a bucket does not depend on the session's time zone. */
export const USAGE_HOUR = (column: string) =>
  `date_bin('1 hour', ${column}, timestamptz '2000-01-01 00:00:00+00')`;

/**
 * The pay-per-mint meter at volume (issue 26): GET /v1/billing/usage counted the period's passports (183 ms at
 * a million). Triggers keep per-hour counts of mints and of mints reported to Stripe, so the period's usage is
 * the sum of at most ~750 hourly rows plus the passports of its partial first and last hour. The backfill runs
 * in this migration's transaction after the triggers exist, so no mint is counted twice or missed (writes to
 * passports wait for it: a few seconds at a million passports). Counts follow inserts only: the service never
 * deletes a passport or a usage report (a company's deletion takes its counts along).
 */
export class Migration20261124910000_usage_counts extends Migration {
  override up(): void {
    this.addSql(`create table usage_counts (
      company_id uuid not null references companies(id) on delete cascade,
      environment text not null check (environment in ('live', 'test')),
      hour timestamptz not null,
      mints integer not null default 0,
      reported integer not null default 0,
      primary key (company_id, environment, hour)
    );`);
    this.addSql(`create function usage_counts_mint() returns trigger language plpgsql as $$
      begin
        insert into usage_counts (company_id, environment, hour, mints)
        values (new.company_id, new.environment, ${USAGE_HOUR('new.created_at')}, 1)
        on conflict (company_id, environment, hour) do update set mints = usage_counts.mints + 1;
        return null;
      end
      $$;`);
    this.addSql(`create function usage_counts_report() returns trigger language plpgsql as $$
      begin
        insert into usage_counts (company_id, environment, hour, reported)
        select p.company_id, p.environment, ${USAGE_HOUR('p.created_at')}, 1 from passports p where p.id = new.passport_id
        on conflict (company_id, environment, hour) do update set reported = usage_counts.reported + 1;
        return null;
      end
      $$;`);
    this.addSql(
      'create trigger passports_usage_count after insert on passports for each row execute function usage_counts_mint();',
    );
    this.addSql(
      'create trigger usage_reports_count after insert on usage_reports for each row execute function usage_counts_report();',
    );
    this.addSql(`insert into usage_counts (company_id, environment, hour, mints, reported)
      select p.company_id, p.environment, ${USAGE_HOUR('p.created_at')}, count(*), count(u.passport_id)
      from passports p left join usage_reports u on u.passport_id = p.id
      group by 1, 2, 3;`);
  }

  override down(): void {
    this.addSql('drop trigger if exists usage_reports_count on usage_reports;');
    this.addSql('drop trigger if exists passports_usage_count on passports;');
    this.addSql('drop function if exists usage_counts_report();');
    this.addSql('drop function if exists usage_counts_mint();');
    this.addSql('drop table if exists usage_counts;');
  }
}
