import { Migration } from '@mikro-orm/migrations';

/**
 * Product-group data of a passport (issue 25, docs/content-specifications.md): one row per passport and product
 * group, holding the specification version the passport is pinned to (`specification_id`, e.g.
 * urn:dpp-service:spec:battery:1.0.0) and the data last written, valid against that version. The pin never
 * changes once set: a new version of the group's model does not move the passports pinned to the old one.
 */
export class Migration20261125500000_passport_content extends Migration {
  override up(): void {
    this.addSql(`create table passport_content (
      passport_id integer not null references passports(id) on delete cascade,
      spec_group text not null,
      specification_id text not null,
      company_id uuid not null references companies(id) on delete cascade,
      environment text not null check (environment in ('live', 'test')),
      data jsonb not null,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      primary key (passport_id, spec_group)
    );`);
  }

  override down(): void {
    this.addSql('drop table if exists passport_content;');
  }
}
