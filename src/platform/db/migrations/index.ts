import type { MigrationObject } from '@mikro-orm/core';
import { Migration20261122000000_foundation } from './Migration20261122000000_foundation.ts';
import { Migration20261122010000_passports } from './Migration20261122010000_passports.ts';
import { Migration20261122030000_webhooks } from './Migration20261122030000_webhooks.ts';
import { Migration20261122040000_webhooks_more } from './Migration20261122040000_webhooks_more.ts';
import { Migration20261122050000_erp } from './Migration20261122050000_erp.ts';
import { Migration20261122070000_recycling } from './Migration20261122070000_recycling.ts';
import { Migration20261122080000_key_diversification } from './Migration20261122080000_key_diversification.ts';
import { Migration20261124300000_stripe_events } from './Migration20261124300000_stripe_events.ts';
import { Migration20261124400000_public_passport } from './Migration20261124400000_public_passport.ts';
import { Migration20261124500000_resales } from './Migration20261124500000_resales.ts';
import { Migration20261124600000_credential_stamp } from './Migration20261124600000_credential_stamp.ts';
import { Migration20261124650000_outbox_recorded_at } from './Migration20261124650000_outbox_recorded_at.ts';
import { Migration20261124660000_webhook_first_attempts } from './Migration20261124660000_webhook_first_attempts.ts';
import { Migration20261124700000_user_login } from './Migration20261124700000_user_login.ts';
import { Migration20261124710000_oauth } from './Migration20261124710000_oauth.ts';
import { Migration20261124720000_billing } from './Migration20261124720000_billing.ts';
import { Migration20261124730000_connect_accounts } from './Migration20261124730000_connect_accounts.ts';
import { Migration20261124740000_password_reset } from './Migration20261124740000_password_reset.ts';
import { Migration20261124750000_passkeys } from './Migration20261124750000_passkeys.ts';
import { Migration20261124760000_sso } from './Migration20261124760000_sso.ts';
import { Migration20261124810000_company_settings } from './Migration20261124810000_company_settings.ts';
import { Migration20261124820000_twin_conformity } from './Migration20261124820000_twin_conformity.ts';
import { Migration20261124900000_volume_indexes } from './Migration20261124900000_volume_indexes.ts';
import { Migration20261124910000_usage_counts } from './Migration20261124910000_usage_counts.ts';
import { Migration20261124920000_passports_created_idx } from './Migration20261124920000_passports_created_idx.ts';
import { Migration20261125100000_economic_operator } from './Migration20261125100000_economic_operator.ts';
import { Migration20261125101000_passport_versions } from './Migration20261125101000_passport_versions.ts';
import { Migration20261125200000_chain_transactions } from './Migration20261125200000_chain_transactions.ts';
import { Migration20261125201000_reorg_record_indexes } from './Migration20261125201000_reorg_record_indexes.ts';
import { Migration20261125202000_chain_signer_genesis } from './Migration20261125202000_chain_signer_genesis.ts';
import { Migration20261125300000_rate_limit_buckets } from './Migration20261125300000_rate_limit_buckets.ts';
import { Migration20261125400000_console_sessions } from './Migration20261125400000_console_sessions.ts';
import { Migration20261125500000_passport_content } from './Migration20261125500000_passport_content.ts';
import { Migration20261125600000_passport_search } from './Migration20261125600000_passport_search.ts';
import { Migration20261126100000_disclosure_grants } from './Migration20261126100000_disclosure_grants.ts';
import { Migration20261126100100_disclosure_grants_received } from './Migration20261126100100_disclosure_grants_received.ts';
import { Migration20261126200000_passport_links } from './Migration20261126200000_passport_links.ts';
import { Migration20261126200100_untp_variant_credentials } from './Migration20261126200100_untp_variant_credentials.ts';
import { Migration20261126500000_untp_credentials } from './Migration20261126500000_untp_credentials.ts';
import { Migration20261127200000_login_throttle } from './Migration20261127200000_login_throttle.ts';
import { Migration20261127500000_dpp_levels } from './Migration20261127500000_dpp_levels.ts';
import { Migration20261127600000_dpp_lifecycle } from './Migration20261127600000_dpp_lifecycle.ts';
import { Migration20261127700000_dpp_level_status } from './Migration20261127700000_dpp_level_status.ts';
import { Migration20261127800000_dpp_level_anchors } from './Migration20261127800000_dpp_level_anchors.ts';
import { Migration20261127810000_registry_registrations } from './Migration20261127810000_registry_registrations.ts';
import { Migration20261127830000_backup_copies } from './Migration20261127830000_backup_copies.ts';
import { Migration20261127840000_exit_old_hosts } from './Migration20261127840000_exit_old_hosts.ts';
import { Migration20261127840001_passport_transfers } from './Migration20261127840001_passport_transfers.ts';
import { Migration20261127900000_overview_indexes } from './Migration20261127900000_overview_indexes.ts';
import { Migration20261127920000_passport_text_search } from './Migration20261127920000_passport_text_search.ts';
import { Migration20261127920001_spreadsheet_imports } from './Migration20261127920001_spreadsheet_imports.ts';
import { Migration20261127930000_request_logs } from './Migration20261127930000_request_logs.ts';
import { Migration20261127940000_recovery_codes } from './Migration20261127940000_recovery_codes.ts';
import { Migration20261128100000_spreadsheet_import_jobs } from './Migration20261128100000_spreadsheet_import_jobs.ts';
import { Migration20261128300000_dpp_levels_by_company } from './Migration20261128300000_dpp_levels_by_company.ts';
import { Migration20261128400000_company_branding } from './Migration20261128400000_company_branding.ts';
import { Migration20261128500000_chip_signals } from './Migration20261128500000_chip_signals.ts';
import { Migration20261128500001_record_tap_function } from './Migration20261128500001_record_tap_function.ts';
import { Migration20261128600000_usage_count_slots } from './Migration20261128600000_usage_count_slots.ts';
import { Migration20261128700000_user_operations } from './Migration20261128700000_user_operations.ts';
import { Migration20261129200000_record_tap_by_uid } from './Migration20261129200000_record_tap_by_uid.ts';
import { Migration20261129200001_challenge_purpose } from './Migration20261129200001_challenge_purpose.ts';
import { Migration20261129200002_chip_signals_open } from './Migration20261129200002_chip_signals_open.ts';
import { Migration20261129300000_user_operation_tx_hashes } from './Migration20261129300000_user_operation_tx_hashes.ts';
import { Migration20261129700000_search_pending_list } from './Migration20261129700000_search_pending_list.ts';
import { Migration20261130400000_record_tap_branches } from './Migration20261130400000_record_tap_branches.ts';

/** Committed migrations, in order. Listed explicitly so no file globbing is needed at run time. */
export const migrations: MigrationObject[] = [
  { name: 'Migration20261122000000_foundation', class: Migration20261122000000_foundation },
  { name: 'Migration20261122010000_passports', class: Migration20261122010000_passports },
  { name: 'Migration20261122030000_webhooks', class: Migration20261122030000_webhooks },
  { name: 'Migration20261122040000_webhooks_more', class: Migration20261122040000_webhooks_more },
  { name: 'Migration20261122050000_erp', class: Migration20261122050000_erp },
  { name: 'Migration20261122070000_recycling', class: Migration20261122070000_recycling },
  {
    name: 'Migration20261122080000_key_diversification',
    class: Migration20261122080000_key_diversification,
  },
  { name: 'Migration20261124300000_stripe_events', class: Migration20261124300000_stripe_events },
  { name: 'Migration20261124400000_public_passport', class: Migration20261124400000_public_passport },
  { name: 'Migration20261124500000_resales', class: Migration20261124500000_resales },
  { name: 'Migration20261124600000_credential_stamp', class: Migration20261124600000_credential_stamp },
  { name: 'Migration20261124650000_outbox_recorded_at', class: Migration20261124650000_outbox_recorded_at },
  {
    name: 'Migration20261124660000_webhook_first_attempts',
    class: Migration20261124660000_webhook_first_attempts,
  },
  { name: 'Migration20261124700000_user_login', class: Migration20261124700000_user_login },
  { name: 'Migration20261124710000_oauth', class: Migration20261124710000_oauth },
  { name: 'Migration20261124720000_billing', class: Migration20261124720000_billing },
  { name: 'Migration20261124730000_connect_accounts', class: Migration20261124730000_connect_accounts },
  { name: 'Migration20261124740000_password_reset', class: Migration20261124740000_password_reset },
  { name: 'Migration20261124750000_passkeys', class: Migration20261124750000_passkeys },
  { name: 'Migration20261124760000_sso', class: Migration20261124760000_sso },
  { name: 'Migration20261124810000_company_settings', class: Migration20261124810000_company_settings },
  { name: 'Migration20261124820000_twin_conformity', class: Migration20261124820000_twin_conformity },
  { name: 'Migration20261124900000_volume_indexes', class: Migration20261124900000_volume_indexes },
  { name: 'Migration20261124910000_usage_counts', class: Migration20261124910000_usage_counts },
  {
    name: 'Migration20261124920000_passports_created_idx',
    class: Migration20261124920000_passports_created_idx,
  },
  { name: 'Migration20261125300000_rate_limit_buckets', class: Migration20261125300000_rate_limit_buckets },
  { name: 'Migration20261125100000_economic_operator', class: Migration20261125100000_economic_operator },
  { name: 'Migration20261125101000_passport_versions', class: Migration20261125101000_passport_versions },
  { name: 'Migration20261125200000_chain_transactions', class: Migration20261125200000_chain_transactions },
  {
    name: 'Migration20261125201000_reorg_record_indexes',
    class: Migration20261125201000_reorg_record_indexes,
  },
  {
    name: 'Migration20261125202000_chain_signer_genesis',
    class: Migration20261125202000_chain_signer_genesis,
  },
  { name: 'Migration20261125400000_console_sessions', class: Migration20261125400000_console_sessions },
  { name: 'Migration20261125500000_passport_content', class: Migration20261125500000_passport_content },
  { name: 'Migration20261125600000_passport_search', class: Migration20261125600000_passport_search },
  { name: 'Migration20261126100000_disclosure_grants', class: Migration20261126100000_disclosure_grants },
  {
    name: 'Migration20261126100100_disclosure_grants_received',
    class: Migration20261126100100_disclosure_grants_received,
  },
  { name: 'Migration20261126200000_passport_links', class: Migration20261126200000_passport_links },
  {
    name: 'Migration20261126200100_untp_variant_credentials',
    class: Migration20261126200100_untp_variant_credentials,
  },
  { name: 'Migration20261126500000_untp_credentials', class: Migration20261126500000_untp_credentials },
  { name: 'Migration20261127200000_login_throttle', class: Migration20261127200000_login_throttle },
  { name: 'Migration20261127500000_dpp_levels', class: Migration20261127500000_dpp_levels },
  { name: 'Migration20261127600000_dpp_lifecycle', class: Migration20261127600000_dpp_lifecycle },
  { name: 'Migration20261127700000_dpp_level_status', class: Migration20261127700000_dpp_level_status },
  { name: 'Migration20261127800000_dpp_level_anchors', class: Migration20261127800000_dpp_level_anchors },
  {
    name: 'Migration20261127810000_registry_registrations',
    class: Migration20261127810000_registry_registrations,
  },
  { name: 'Migration20261127830000_backup_copies', class: Migration20261127830000_backup_copies },
  { name: 'Migration20261127840000_exit_old_hosts', class: Migration20261127840000_exit_old_hosts },
  {
    name: 'Migration20261127840001_passport_transfers',
    class: Migration20261127840001_passport_transfers,
  },
  { name: 'Migration20261127900000_overview_indexes', class: Migration20261127900000_overview_indexes },
  {
    name: 'Migration20261127920000_passport_text_search',
    class: Migration20261127920000_passport_text_search,
  },
  { name: 'Migration20261127920001_spreadsheet_imports', class: Migration20261127920001_spreadsheet_imports },
  { name: 'Migration20261127930000_request_logs', class: Migration20261127930000_request_logs },
  {
    name: 'Migration20261127940000_recovery_codes',
    class: Migration20261127940000_recovery_codes,
  },
  {
    name: 'Migration20261128100000_spreadsheet_import_jobs',
    class: Migration20261128100000_spreadsheet_import_jobs,
  },
  {
    name: 'Migration20261128300000_dpp_levels_by_company',
    class: Migration20261128300000_dpp_levels_by_company,
  },
  { name: 'Migration20261128400000_company_branding', class: Migration20261128400000_company_branding },
  { name: 'Migration20261128500000_chip_signals', class: Migration20261128500000_chip_signals },
  { name: 'Migration20261128500001_record_tap_function', class: Migration20261128500001_record_tap_function },
  { name: 'Migration20261128600000_usage_count_slots', class: Migration20261128600000_usage_count_slots },
  { name: 'Migration20261128700000_user_operations', class: Migration20261128700000_user_operations },
  { name: 'Migration20261129200000_record_tap_by_uid', class: Migration20261129200000_record_tap_by_uid },
  { name: 'Migration20261129200001_challenge_purpose', class: Migration20261129200001_challenge_purpose },
  { name: 'Migration20261129200002_chip_signals_open', class: Migration20261129200002_chip_signals_open },
  {
    name: 'Migration20261129300000_user_operation_tx_hashes',
    class: Migration20261129300000_user_operation_tx_hashes,
  },
  { name: 'Migration20261129700000_search_pending_list', class: Migration20261129700000_search_pending_list },
  { name: 'Migration20261130400000_record_tap_branches', class: Migration20261130400000_record_tap_branches },
];
