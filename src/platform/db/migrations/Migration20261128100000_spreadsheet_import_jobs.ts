import { Migration } from '@mikro-orm/migrations';

/**
 * A spreadsheet import becomes a durable job (src/lifecycle/provision/spreadsheet-import.ts): its row is written
 * when the file is uploaded and holds the file until the job ends, its state, progress and bad rows, so any API
 * process answers its progress and the worker's workflow runs it, surviving restarts. The key stays the file's
 * SHA-256 per company and environment; `id` is the job's public id (derived from that key). Imports recorded
 * before are finished jobs.
 */
export class Migration20261128100000_spreadsheet_import_jobs extends Migration {
  override up(): void {
    this.addSql(`alter table spreadsheet_imports
      add column id varchar(32),
      add column file_name varchar(255) null,
      add column state text not null default 'done'
        check (state in ('checking', 'writing', 'done', 'refused', 'failed')),
      add column total integer not null default 0,
      add column processed integer not null default 0,
      add column errors jsonb not null default '[]',
      add column file bytea null,
      add column updated_at timestamptz not null default now(),
      add column finished_at timestamptz null,
      alter column row_count set default 0;`);
    this.addSql(`update spreadsheet_imports set
      id = left(translate(encode(sha256(convert_to(company_id || ':' || environment || ':' || file_sha256, 'UTF8')),
        'base64'), '+/', '-_'), 24),
      total = row_count, processed = row_count, finished_at = created_at;`);
    this.addSql('alter table spreadsheet_imports alter column id set not null;');
    this.addSql('create unique index spreadsheet_imports_id_uq on spreadsheet_imports (id);');
  }

  override down(): void {
    this.addSql(`alter table spreadsheet_imports
      drop column id, drop column file_name, drop column state, drop column total, drop column processed,
      drop column errors, drop column file, drop column updated_at, drop column finished_at,
      alter column row_count drop default;`);
  }
}
