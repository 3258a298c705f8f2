import { Migration } from '@mikro-orm/migrations';

/**
 * The company's request log (Developers › Logs, issue 36; docs/console.md "Developers › Logs"): one row per
 * authenticated API request, bodies redacted and capped, kept for a bounded time and a bounded number of rows
 * per company and environment (src/accounts/request-log/). Webhook attempts keep the headers they were sent with.
 */
export class Migration20261127930000_request_logs extends Migration {
  override up(): void {
    this.addSql(`create table request_logs (
      id uuid primary key default gen_random_uuid(),
      company_id uuid not null references companies(id) on delete cascade,
      environment text not null,
      created_at timestamptz not null,
      method text not null,
      path text not null,
      query jsonb null,
      status integer not null,
      duration_ms double precision not null,
      request_id text not null,
      api_key_id uuid null,
      user_id integer null,
      oauth_client_id text null,
      client_address text null,
      user_agent text null,
      request_headers jsonb not null default '{}'::jsonb,
      request_body text null,
      request_body_bytes integer not null default 0,
      request_body_truncated boolean not null default false,
      response_body text null,
      response_body_bytes integer not null default 0,
      response_body_truncated boolean not null default false,
      error_code text null
    );`);
    this.addSql(
      'create index request_logs_newest on request_logs (company_id, environment, created_at desc, id desc);',
    );
    this.addSql('create index request_logs_age on request_logs (created_at);');
    this.addSql('alter table webhook_attempts add column request_headers jsonb null;');
  }

  override down(): void {
    this.addSql('alter table webhook_attempts drop column if exists request_headers;');
    this.addSql('drop table if exists request_logs;');
  }
}
