import { Migration } from '@mikro-orm/migrations';

const OWNED = `company_id uuid not null references companies(id) on delete cascade,
        environment text not null check (environment in ('live', 'test'))`;

/** Asset twins provisioned from the ERP, factory toolbox keys, and stored responses of idempotent writes. */
export class Migration20261122050000_erp extends Migration {
  override up(): void {
    this.addSql(`
      create table asset_twins (
        id serial primary key,
        ${OWNED},
        service_internal_id varchar(24) not null unique,
        status text not null default 'INACTIVE' check (status in ('INACTIVE', 'ACTIVE')),
        material_number varchar(100) null,
        order_id varchar(100) null,
        gtin varchar(14) null,
        name varchar(200) null,
        chip_uid varchar(14) null,
        bound_at timestamptz null,
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now(),
        check ((chip_uid is null) = (status = 'INACTIVE'))
      );`);
    this.addSql(
      'create unique index asset_twins_chip_uid_uq on asset_twins(environment, chip_uid) where chip_uid is not null;',
    );
    this.addSql('create index asset_twins_company_idx on asset_twins(company_id, environment, id);');
    this.addSql(`
      create table toolbox_keys (
        id uuid primary key,
        ${OWNED},
        name varchar(200) not null,
        algorithm text not null check (algorithm in ('Ed25519', 'P-256')),
        public_key_pem text not null,
        created_at timestamptz not null default now(),
        revoked_at timestamptz null
      );`);
    this.addSql(
      'create index toolbox_keys_company_idx on toolbox_keys(company_id, environment, created_at);',
    );
    this.addSql(`
      create table idempotency_keys (
        ${OWNED},
        key varchar(255) not null,
        method varchar(10) not null,
        path text not null,
        request_hash char(64) not null,
        response_status integer null,
        response_body jsonb null,
        created_at timestamptz not null default now(),
        primary key (company_id, environment, key)
      );`);
    this.addSql('create index idempotency_keys_created_idx on idempotency_keys(created_at);');
  }
}
