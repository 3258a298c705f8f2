import { Migration } from '@mikro-orm/migrations';

/**
 * Links between the passports of one physical product's life (issue 25, docs/battery-passport.md
 * "Repurposing"): a repurposed or remanufactured battery gets a new passport linked to the original's. The two
 * passports may belong to different companies (the brand's original, the repurposer's new one), so the row
 * names both passports and the company that made the link; it goes with either passport.
 */
export class Migration20261126200000_passport_links extends Migration {
  override up(): void {
    this.addSql(`create table passport_links (
      id bigserial primary key,
      environment text not null check (environment in ('live', 'test')),
      original_passport_id integer not null references passports(id) on delete cascade,
      successor_passport_id integer not null references passports(id) on delete cascade,
      relation text not null check (relation in ('repurposed', 'remanufactured')),
      linked_by_company_id uuid not null references companies(id) on delete cascade,
      created_at timestamptz not null default now(),
      unique (original_passport_id, successor_passport_id),
      check (original_passport_id <> successor_passport_id)
    );`);
    this.addSql('create index passport_links_successor on passport_links (successor_passport_id);');
  }

  override down(): void {
    this.addSql('drop table if exists passport_links;');
  }
}
