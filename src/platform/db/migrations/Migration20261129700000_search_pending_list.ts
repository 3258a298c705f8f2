import { Migration } from '@mikro-orm/migrations';

/**
 * The console's free-text passport search reads the trigram index passports_search_text_trgm. A GIN index
 * gathers new entries in a pending list (up to gin_pending_list_limit, 4 MB by default) that every search
 * reads in full until a vacuum or a later insert merges it: after a brand's latest hundred thousand mints the
 * same search took 20 ms instead of 1 ms (issue 39: 2.11× its one-page cost at 100,000 passports). At 64 kB
 * (the least PostgreSQL allows) a search reads at most a few pending pages, and an insert that fills the list
 * merges its few dozen passports' entries.
 */
export class Migration20261129700000_search_pending_list extends Migration {
  override up(): void {
    this.addSql('alter index passports_search_text_trgm set (gin_pending_list_limit = 64);');
  }

  override down(): void {
    this.addSql('alter index passports_search_text_trgm reset (gin_pending_list_limit);');
  }
}
