import { Migration } from '@mikro-orm/migrations';

/**
 * A challenge answers one kind of act: a buyer's claim or an owner's release for resale (both need a tap made
 * after it, docs/resale.md "A tap made now"), so one issued for a claim never releases, nor the other way.
 */
export class Migration20261129200001_challenge_purpose extends Migration {
  override up(): void {
    this.addSql(`alter table claim_challenges add column purpose text not null default 'claim'
      check (purpose in ('claim', 'release'));`);
  }

  override down(): void {
    this.addSql('alter table claim_challenges drop column purpose;');
  }
}
