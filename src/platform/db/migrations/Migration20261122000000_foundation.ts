import { Migration } from '@mikro-orm/migrations';

export class Migration20261122000000_foundation extends Migration {
  override up(): void {
    this.addSql(`
      create table companies (
        id uuid primary key,
        name varchar(200) not null,
        created_at timestamptz not null default now()
      );`);
    this.addSql(`
      create table users (
        id serial primary key,
        company_id uuid not null references companies(id) on delete cascade,
        email varchar(320) not null unique,
        password_hash varchar(255) null,
        created_at timestamptz not null default now()
      );`);
    this.addSql('create index users_company_id_idx on users(company_id);');
    this.addSql(`
      create table api_keys (
        id uuid primary key,
        company_id uuid not null references companies(id) on delete cascade,
        environment text not null check (environment in ('live', 'test')),
        name varchar(100) not null,
        prefix varchar(32) not null,
        lookup_id varchar(32) not null unique,
        secret_hash char(64) not null,
        created_at timestamptz not null default now(),
        last_used_at timestamptz null,
        revoked_at timestamptz null
      );`);
    this.addSql('create index api_keys_company_env_idx on api_keys(company_id, environment, created_at);');
  }

  override down(): void {
    this.addSql('drop table if exists api_keys;');
    this.addSql('drop table if exists users;');
    this.addSql('drop table if exists companies;');
  }
}
