import { Migration } from '@mikro-orm/migrations';

/**
 * OAuth 2.0 client credentials: clients per company and environment (secret stored as a SHA-256 hash), and
 * their access and refresh tokens (hashes only). Refresh tokens of one grant form a family: reusing a rotated
 * one revokes the family.
 */
export class Migration20261124710000_oauth extends Migration {
  override up(): void {
    this.addSql(`create table oauth_clients (
      id uuid primary key,
      company_id uuid not null references companies(id) on delete cascade,
      environment text not null check (environment in ('live', 'test')),
      client_id text not null unique,
      secret_hash bytea not null,
      name text not null,
      created_at timestamptz not null default now(),
      revoked_at timestamptz null
    );`);
    this.addSql('create index oauth_clients_company on oauth_clients (company_id, environment);');
    this.addSql(`create table oauth_tokens (
      token_hash bytea primary key,
      kind text not null check (kind in ('access', 'refresh')),
      client_id uuid not null references oauth_clients(id) on delete cascade,
      family_id uuid not null,
      expires_at timestamptz not null,
      used_at timestamptz null,
      revoked_at timestamptz null,
      created_at timestamptz not null default now()
    );`);
    this.addSql('create index oauth_tokens_family on oauth_tokens (family_id);');
    this.addSql('create index oauth_tokens_expired on oauth_tokens (expires_at);');
  }

  override down(): void {
    this.addSql('drop table if exists oauth_tokens;');
    this.addSql('drop table if exists oauth_clients;');
  }
}
