import { Migration } from '@mikro-orm/migrations';

/**
 * Model and batch passports (issue 34, docs/granularity.md): passports with no chip and no token, keyed by
 * (environment, GTIN) for a model and (environment, GTIN, lot) for a batch, owned by the company that created
 * them. Their product-group data (`dpp_level_content`, one row per product group, pinned like an item's) and
 * their versions (`dpp_level_versions`: the whole document and its hashes; `anchor_status` stays `pending` until
 * level versions are anchored on chain) sit beside the item tables. Items find their model and batch by key at
 * read time, so nothing links them at mint.
 */
export class Migration20261127500000_dpp_levels extends Migration {
  override up(): void {
    this.addSql(`create table dpp_levels (
      id serial primary key,
      company_id uuid not null references companies(id) on delete cascade,
      environment text not null check (environment in ('live', 'test')),
      granularity text not null check (granularity in ('model', 'batch')),
      gtin char(14) not null,
      lot varchar(20) null,
      service_uid uuid not null unique,
      dpp_status text not null default 'active' check (dpp_status in ('active', 'suspended', 'archived')),
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      check ((granularity = 'model') = (lot is null))
    );`);
    this.addSql(
      `create unique index dpp_levels_key_idx on dpp_levels (environment, gtin, (coalesce(lot, '')));`,
    );
    this.addSql(`create table dpp_level_content (
      level_id integer not null references dpp_levels(id) on delete cascade,
      spec_group text not null,
      specification_id text not null,
      data jsonb not null,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      primary key (level_id, spec_group)
    );`);
    this.addSql(`create table dpp_level_versions (
      id bigserial primary key,
      level_id integer not null references dpp_levels(id) on delete cascade,
      number integer not null check (number >= 1),
      sha256 char(64) not null,
      public_sha256 char(64) not null,
      content jsonb not null,
      anchor_status text not null default 'pending' check (anchor_status in ('pending', 'anchored')),
      created_at timestamptz not null,
      unique (level_id, number)
    );`);
    // The batch/lot an ERP names when it provisions a twin: its item then belongs to that batch passport.
    this.addSql('alter table asset_twins add column batch varchar(20) null;');
  }

  override down(): void {
    this.addSql('alter table asset_twins drop column if exists batch;');
    this.addSql('drop table if exists dpp_level_versions;');
    this.addSql('drop table if exists dpp_level_content;');
    this.addSql('drop table if exists dpp_levels;');
  }
}
