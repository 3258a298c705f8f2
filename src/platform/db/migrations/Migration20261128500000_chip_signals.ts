import { Migration } from '@mikro-orm/migrations';

/**
 * Counterfeit signals (issue 38, docs/signals.md): what a company's chips' taps tell it, raised inside the
 * statement that records the tap. `occurrence` names one occurrence of a signal type for one chip (a copied
 * URL's counter, a jump's counter, a burst's window start, the passport status tapped after), so an ongoing
 * occurrence updates its evidence instead of raising again. `tap_reopenings` counts the presentations of one
 * already-used SUN URL (clients as keyed hashes, never raw addresses). Thresholds per company, defaults in
 * src/chips/signals/signal-types.ts when the company has no row.
 */
export class Migration20261128500000_chip_signals extends Migration {
  override up(): void {
    this.addSql(`alter table chips
      add column chip_type text not null default 'NTAG 424 DNA',
      add column burst_started_at timestamptz null,
      add column burst_taps integer not null default 0,
      add column previous_counter integer null,
      add column previous_verified_at timestamptz null;`);
    this.addSql(`create table chip_signals (
      id uuid primary key default gen_random_uuid(),
      company_id uuid not null references companies(id) on delete cascade,
      environment text not null check (environment in ('live', 'test')),
      chip_id integer not null references chips(id) on delete cascade,
      chip_uid varchar(14) not null,
      token_id varchar(78) null,
      type text not null,
      severity text not null check (severity in ('low', 'medium', 'high')),
      occurrence text not null,
      evidence jsonb not null,
      raised_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      resolved_at timestamptz null,
      resolved_by text null,
      unique (company_id, environment, chip_id, type, occurrence)
    );`);
    this.addSql(
      'create index chip_signals_company_raised on chip_signals (company_id, environment, raised_at desc, id);',
    );
    this.addSql(
      'create index chip_signals_token on chip_signals (company_id, environment, token_id) where token_id is not null;',
    );
    this.addSql(`create table tap_reopenings (
      chip_id integer not null references chips(id) on delete cascade,
      counter integer not null,
      openings integer not null,
      first_at timestamptz not null,
      last_at timestamptz not null,
      clients text[] not null,
      primary key (chip_id, counter)
    );`);
    this.addSql(`create table signal_settings (
      company_id uuid primary key references companies(id) on delete cascade,
      reopen_threshold integer not null,
      counter_jump_threshold integer not null,
      burst_taps integer not null,
      burst_window_seconds integer not null,
      notify jsonb not null,
      updated_at timestamptz not null default now()
    );`);
    this.addSql(`create table claim_challenges (
      id uuid primary key,
      environment text not null check (environment in ('live', 'test')),
      token_id varchar(78) not null,
      user_email text not null,
      chip_counter integer null,
      issued_at timestamptz not null default now(),
      expires_at timestamptz not null,
      used_at timestamptz null
    );`);
    this.addSql(
      'create index claim_challenges_token on claim_challenges (environment, token_id, issued_at);',
    );
  }

  override down(): void {
    this.addSql('drop table claim_challenges;');
    this.addSql('drop table signal_settings;');
    this.addSql('drop table tap_reopenings;');
    this.addSql('drop table chip_signals;');
    this.addSql(
      'alter table chips drop column chip_type, drop column burst_started_at, drop column burst_taps, drop column previous_counter, drop column previous_verified_at;',
    );
  }
}
