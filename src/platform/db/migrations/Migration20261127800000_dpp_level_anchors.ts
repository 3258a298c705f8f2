import { Migration } from '@mikro-orm/migrations';

/**
 * Model and batch passport versions anchored on chain (issue 34, docs/granularity.md "Versions and anchoring"):
 * the transaction that carried each version's hashes (`anchorVersion` on the passport contract), its block and
 * contract. `anchor_status` turns `anchored` when they are recorded.
 */
export class Migration20261127800000_dpp_level_anchors extends Migration {
  override up(): void {
    this.addSql(`alter table dpp_level_versions
      add column transaction_hash char(66) null,
      add column block_number bigint null,
      add column contract_address char(42) null,
      add column anchored_at timestamptz null;`);
    // The worker's sweep of versions whose anchor never started, oldest first.
    this.addSql(`create index dpp_level_versions_pending_idx on dpp_level_versions (created_at)
      where anchor_status = 'pending';`);
  }

  override down(): void {
    this.addSql('drop index if exists dpp_level_versions_pending_idx;');
    this.addSql(`alter table dpp_level_versions drop column transaction_hash, drop column block_number,
      drop column contract_address, drop column anchored_at;`);
  }
}
