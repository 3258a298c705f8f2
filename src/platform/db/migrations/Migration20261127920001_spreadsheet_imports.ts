import { Migration } from '@mikro-orm/migrations';

/**
 * The spreadsheets imported into a company's environment (src/lifecycle/provision/spreadsheet-import.ts), by the
 * SHA-256 of the file: written in the transaction that writes the file's twins, so uploading the same file again
 * writes nothing and answers the first import.
 */
export class Migration20261127920001_spreadsheet_imports extends Migration {
  override up(): void {
    this.addSql(`create table spreadsheet_imports (
      company_id uuid not null references companies (id) on delete cascade,
      environment text not null check (environment in ('live', 'test')),
      file_sha256 char(64) not null,
      row_count integer not null,
      created_at timestamptz not null default now(),
      primary key (company_id, environment, file_sha256)
    );`);
  }

  override down(): void {
    this.addSql('drop table if exists spreadsheet_imports;');
  }
}
