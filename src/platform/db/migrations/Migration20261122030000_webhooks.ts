import { Migration } from '@mikro-orm/migrations';

const OWNED = `company_id uuid not null references companies(id) on delete cascade,
        environment text not null check (environment in ('live', 'test'))`;

export class Migration20261122030000_webhooks extends Migration {
  override up(): void {
    this.addSql(`
      create table webhook_endpoints (
        id uuid primary key,
        ${OWNED},
        url text not null,
        description varchar(500) null,
        event_types jsonb not null default '[]',
        enabled boolean not null default true,
        disabled_reason varchar(200) null,
        secret bytea not null,
        previous_secret bytea null,
        previous_secret_expires_at timestamptz null,
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now(),
        deleted_at timestamptz null
      );`);
    this.addSql(
      'create index webhook_endpoints_company_idx on webhook_endpoints(company_id, environment, created_at);',
    );
    this.addSql(`
      create table webhook_deliveries (
        id uuid primary key,
        ${OWNED},
        event_id uuid not null references outbox_events(id),
        endpoint_id uuid not null references webhook_endpoints(id),
        event_type varchar(60) not null,
        status text not null default 'pending',
        attempt_count integer not null default 0,
        next_attempt_at timestamptz null,
        last_status_code integer null,
        last_error text null,
        succeeded_at timestamptz null,
        dead_lettered_at timestamptz null,
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now(),
        unique (event_id, endpoint_id)
      );`);
    this.addSql(
      'create index webhook_deliveries_endpoint_idx on webhook_deliveries(endpoint_id, created_at);',
    );
    this.addSql(
      'create index webhook_deliveries_dead_idx on webhook_deliveries(company_id, environment, dead_lettered_at) where dead_lettered_at is not null;',
    );
    this.addSql(`
      create table webhook_attempts (
        id bigserial primary key,
        delivery_id uuid not null references webhook_deliveries(id) on delete cascade,
        attempt integer not null,
        started_at timestamptz not null,
        duration_ms integer not null,
        status_code integer null,
        error text null,
        response_snippet text null,
        unique (delivery_id, attempt)
      );`);
  }

  override down(): void {
    for (const table of ['webhook_attempts', 'webhook_deliveries', 'webhook_endpoints']) {
      this.addSql(`drop table if exists ${table};`);
    }
  }
}
