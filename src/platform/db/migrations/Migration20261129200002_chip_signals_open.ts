import { Migration } from '@mikro-orm/migrations';

/**
 * The Signals page opens on the open signals, newest first: most of a company's signals are resolved, so walking
 * all of them (chip_signals_company_raised) to find a page of open ones reads ten times the page or more. Only
 * the open ones, in (raised_at, id) order, so the keyset cursor is a range of this index read backwards.
 */
export class Migration20261129200002_chip_signals_open extends Migration {
  override up(): void {
    this.addSql(`create index chip_signals_open on chip_signals (company_id, environment, raised_at, id)
      where resolved_at is null;`);
  }

  override down(): void {
    this.addSql('drop index chip_signals_open;');
  }
}
