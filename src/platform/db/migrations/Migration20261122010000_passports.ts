import { Migration } from '@mikro-orm/migrations';

const OWNED = `company_id uuid not null references companies(id) on delete cascade,
        environment text not null check (environment in ('live', 'test'))`;

export class Migration20261122010000_passports extends Migration {
  override up(): void {
    this.addSql(`
      create table chips (
        id serial primary key,
        ${OWNED},
        chip_uid varchar(14) not null,
        product_id varchar(200) null,
        status text not null default 'INACTIVE',
        sun_counter integer null,
        sun_counter_ref varchar(200) null,
        verification_count integer not null default 0,
        last_verified_at timestamptz null,
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now(),
        unique (environment, chip_uid)
      );`);
    this.addSql('create index chips_company_idx on chips(company_id, environment, created_at);');
    this.addSql(`
      create table chip_keys (
        ${OWNED},
        meta_read_key bytea not null,
        file_read_key bytea not null,
        updated_at timestamptz not null default now(),
        primary key (company_id, environment)
      );`);
    this.addSql(`
      create table passports (
        id serial primary key,
        ${OWNED},
        token_id varchar(78) not null,
        chip_id integer not null references chips(id),
        chip_uid varchar(14) not null,
        product_id varchar(200) null,
        gtin varchar(14) null,
        owner_wallet varchar(42) not null,
        material varchar(200) null,
        warranty_expiry timestamptz null,
        metadata_url text not null,
        erp_material_id varchar(100) null,
        erp_serial varchar(100) null,
        erp_order_id varchar(100) null,
        service_uid uuid not null unique,
        parent_uid uuid null,
        transaction_hash varchar(66) not null,
        mint_block bigint not null,
        mint_timestamp timestamptz not null,
        locked_deposit_wei numeric(78, 0) not null,
        metadata_cache jsonb not null,
        contract_address varchar(42) not null,
        status text not null default 'ACTIVE',
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now(),
        unique (environment, chip_uid),
        unique (environment, contract_address, token_id)
      );`);
    this.addSql('create index passports_company_idx on passports(company_id, environment, id);');
    this.addSql('create sequence passport_token_ids_live;');
    this.addSql('create sequence passport_token_ids_test;');
    this.addSql(`
      create table supply_chain_events (
        id serial primary key,
        ${OWNED},
        token_id varchar(78) not null,
        action varchar(40) not null,
        actor varchar(200) null,
        actor_email varchar(320) null,
        location_name varchar(200) null,
        latitude double precision null,
        longitude double precision null,
        metadata jsonb not null default '{}',
        data_hash varchar(66) null,
        transaction_hash varchar(66) null,
        block_number bigint null,
        contract_address varchar(42) null,
        timestamp timestamptz not null default now(),
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now()
      );`);
    this.addSql(
      'create index supply_chain_events_token_idx on supply_chain_events(environment, token_id, id);',
    );
    this.addSql(`
      create table outbox_events (
        id uuid primary key,
        ${OWNED},
        event_type varchar(60) not null,
        data jsonb not null,
        occurred_at timestamptz not null default now(),
        dispatched_at timestamptz null
      );`);
    this.addSql(
      'create index outbox_events_pending_idx on outbox_events(occurred_at) where dispatched_at is null;',
    );
    this.addSql(`
      create table usage_records (
        id bigserial primary key,
        ${OWNED},
        metric varchar(40) not null,
        reference varchar(200) not null,
        occurred_at timestamptz not null default now(),
        unique (environment, metric, reference)
      );`);
    this.addSql(
      'create index usage_records_period_idx on usage_records(company_id, environment, metric, occurred_at);',
    );
  }

  override down(): void {
    this.addSql('drop sequence if exists passport_token_ids_live;');
    this.addSql('drop sequence if exists passport_token_ids_test;');
    for (const table of [
      'usage_records',
      'outbox_events',
      'supply_chain_events',
      'passports',
      'chip_keys',
      'chips',
    ]) {
      this.addSql(`drop table if exists ${table};`);
    }
  }
}
