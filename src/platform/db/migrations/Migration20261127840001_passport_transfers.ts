import { Migration } from '@mikro-orm/migrations';

/**
 * Transfer of responsibility for a passport between two economic operators (EN 18239; issue 35, docs/exit.md
 * "Handing a passport to another operator"): an offer by the passport's company, which the receiving company
 * accepts or declines until it expires, or the offering company withdraws. One open offer per passport.
 */
export class Migration20261127840001_passport_transfers extends Migration {
  override up(): void {
    this.addSql(`create table passport_transfers (
      id uuid primary key default gen_random_uuid(),
      environment text not null check (environment in ('live', 'test')),
      passport_id integer not null references passports(id) on delete cascade,
      from_company_id uuid not null references companies(id) on delete cascade,
      to_company_id uuid not null references companies(id) on delete cascade,
      status text not null default 'offered'
        check (status in ('offered', 'accepted', 'declined', 'withdrawn', 'expired')),
      note text null,
      offered_at timestamptz not null default now(),
      expires_at timestamptz not null,
      decided_at timestamptz null,
      check (from_company_id <> to_company_id)
    );`);
    this.addSql(`create unique index passport_transfers_open_idx on passport_transfers (passport_id)
      where status = 'offered';`);
    this.addSql(
      'create index passport_transfers_from_idx on passport_transfers (from_company_id, environment);',
    );
    this.addSql('create index passport_transfers_to_idx on passport_transfers (to_company_id, environment);');
  }

  override down(): void {
    this.addSql('drop table passport_transfers;');
  }
}
