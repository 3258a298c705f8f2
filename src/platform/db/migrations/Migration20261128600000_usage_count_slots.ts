import { Migration } from '@mikro-orm/migrations';
import { USAGE_HOUR } from './Migration20261124910000_usage_counts.ts';

/** How many rows an hour's count of one company and environment is spread over. */
export const USAGE_SLOTS = 8;

/**
 * Slotted usage counts (issue 39): every mint of a company upserted the same per-hour row, so concurrent mints of
 * one brand queued on that row's lock until each one's transaction committed, and a bulk insert of a million
 * passports in one transaction rewrote one row a million times. Now an hour's count is spread over USAGE_SLOTS
 * rows (`slot`: the writing connection's backend pid modulo USAGE_SLOTS, so two connections rarely share one),
 * summed on read (PERIOD_USAGE already sums), and the triggers are statement-level: one upsert per company, hour
 * and statement, counted from the statement's inserted rows (a transition table), in a fixed order so two
 * statements never lock each other's rows crosswise.
 */
export class Migration20261128600000_usage_count_slots extends Migration {
  override up(): void {
    this.addSql('alter table usage_counts add column slot smallint not null default 0;');
    this.addSql('alter table usage_counts drop constraint usage_counts_pkey;');
    this.addSql('alter table usage_counts add primary key (company_id, environment, hour, slot);');
    this.addSql('drop trigger if exists passports_usage_count on passports;');
    this.addSql('drop trigger if exists usage_reports_count on usage_reports;');
    this.addSql(`create or replace function usage_counts_mint() returns trigger language plpgsql as $$
      begin
        insert into usage_counts (company_id, environment, hour, slot, mints)
        select i.company_id, i.environment, ${USAGE_HOUR('i.created_at')}, pg_backend_pid() % ${USAGE_SLOTS}, count(*)
        from inserted i group by 1, 2, 3 order by 1, 2, 3
        on conflict (company_id, environment, hour, slot) do update set mints = usage_counts.mints + excluded.mints;
        return null;
      end
      $$;`);
    this.addSql(`create or replace function usage_counts_report() returns trigger language plpgsql as $$
      begin
        insert into usage_counts (company_id, environment, hour, slot, reported)
        select p.company_id, p.environment, ${USAGE_HOUR('p.created_at')}, pg_backend_pid() % ${USAGE_SLOTS}, count(*)
        from inserted u join passports p on p.id = u.passport_id group by 1, 2, 3 order by 1, 2, 3
        on conflict (company_id, environment, hour, slot) do update
          set reported = usage_counts.reported + excluded.reported;
        return null;
      end
      $$;`);
    this.addSql(`create trigger passports_usage_count after insert on passports
      referencing new table as inserted for each statement execute function usage_counts_mint();`);
    this.addSql(`create trigger usage_reports_count after insert on usage_reports
      referencing new table as inserted for each statement execute function usage_counts_report();`);
  }

  override down(): void {
    this.addSql('drop trigger if exists passports_usage_count on passports;');
    this.addSql('drop trigger if exists usage_reports_count on usage_reports;');
    this.addSql(`create table usage_counts_merged as select company_id, environment, hour,
      sum(mints)::int as mints, sum(reported)::int as reported from usage_counts group by 1, 2, 3;`);
    this.addSql('delete from usage_counts;');
    this.addSql('alter table usage_counts drop constraint usage_counts_pkey;');
    this.addSql('alter table usage_counts drop column slot;');
    this.addSql('alter table usage_counts add primary key (company_id, environment, hour);');
    this.addSql(
      'insert into usage_counts select company_id, environment, hour, mints, reported from usage_counts_merged;',
    );
    this.addSql('drop table usage_counts_merged;');
    this.addSql(`create or replace function usage_counts_mint() returns trigger language plpgsql as $$
      begin
        insert into usage_counts (company_id, environment, hour, mints)
        values (new.company_id, new.environment, ${USAGE_HOUR('new.created_at')}, 1)
        on conflict (company_id, environment, hour) do update set mints = usage_counts.mints + 1;
        return null;
      end
      $$;`);
    this.addSql(`create or replace function usage_counts_report() returns trigger language plpgsql as $$
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
  }
}
