import { Migration } from '@mikro-orm/migrations';

/**
 * The backup copy at an independent provider (issue 35, docs/backup.md). As primary: one push per published
 * version (item or level), drained from the versions tables, retried until the backup acknowledges its hash.
 * As backup provider: the peers allowed to push, and the copies they pushed (served read-only).
 */
export class Migration20261127830000_backup_copies extends Migration {
  override up(): void {
    this.addSql(`create table backup_pushes (
      id bigserial primary key,
      provider text not null,
      source text not null check (source in ('item', 'level')),
      version_id bigint not null,
      company_id uuid not null references companies(id) on delete cascade,
      environment text not null check (environment in ('live', 'test')),
      passport_key text not null,
      digital_link_path text not null,
      number integer not null,
      sha256 char(64) not null,
      status text not null default 'pending' check (status in ('pending', 'acknowledged', 'refused')),
      attempts integer not null default 0,
      next_attempt_at timestamptz not null default now(),
      last_error text null,
      acknowledged_sha256 char(64) null,
      acknowledged_at timestamptz null,
      version_created_at timestamptz not null,
      created_at timestamptz not null default now(),
      unique (provider, source, version_id)
    );`);
    this.addSql(
      `create index backup_pushes_due on backup_pushes (provider, next_attempt_at) where status = 'pending';`,
    );
    this.addSql(
      'create index backup_pushes_passport on backup_pushes (company_id, environment, passport_key, provider);',
    );
    this.addSql(`create table backup_peers (
      id text primary key,
      token_sha256 char(64) not null unique,
      note text null,
      created_at timestamptz not null default now(),
      revoked_at timestamptz null
    );`);
    this.addSql(`create table backup_copies (
      id bigserial primary key,
      peer_id text not null references backup_peers(id),
      environment text not null check (environment in ('live', 'test')),
      digital_link_path text not null,
      number integer not null,
      sha256 char(64) not null,
      public_sha256 char(64) not null,
      document text not null,
      public_document text not null,
      page text null,
      page_sha256 char(64) null,
      credential text null,
      credential_sha256 char(64) null,
      version_created_at timestamptz not null,
      received_at timestamptz not null default now(),
      unique (peer_id, environment, digital_link_path, number)
    );`);
  }

  override down(): void {
    this.addSql('drop table backup_copies;');
    this.addSql('drop table backup_peers;');
    this.addSql('drop table backup_pushes;');
  }
}
