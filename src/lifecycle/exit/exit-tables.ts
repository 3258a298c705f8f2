/**
 * The rows that make up one company's passports, in the order an import inserts them (a row's foreign keys
 * point only to tables above it). Each table is written as JSON Lines of its rows exactly as stored
 * (`row_to_json`: text and JSON columns verbatim, bytea as `\x` hex), so an import restores the same bytes.
 * `where` selects the company's rows with `?` bound to its id. Not exported: what belongs to the service
 * rather than to the company (API keys, users, sessions, billing, the outbox and delivery logs, status lists:
 * a new instance builds its own from the imported passports' status entries).
 */
export interface ExitTable {
  name: string;
  /** Selects the company's rows; every `?` is the company's id. */
  where: string;
  /** A total order, so every export of the same rows writes the same file. */
  orderBy: string;
  /**
   * Sealed secrets: left out unless the operator asks for them, then written in clear and sealed again by the
   * importing instance under its own key (secrets.ts, docs/exit.md "Secrets").
   */
  secretColumns?: readonly string[];
  /** A table of secrets only: exported only when the operator asks for secrets. */
  onlyWithSecrets?: boolean;
  /** Sequences to move past the imported ids (`select setval(…)` after an import). */
  serial?: string;
}

const OWN = 'company_id = ?';
const OWN_PASSPORT = 'passport_id in (select id from passports where company_id = ?)';
const OWN_LEVEL = 'level_id in (select id from dpp_levels where company_id = ?)';

export const EXIT_TABLES: readonly ExitTable[] = [
  // The company itself, and the companies its grants name (so the grants hold on the new instance).
  {
    name: 'companies',
    where: 'id = ? or id in (select grantee_company_id from disclosure_grants where company_id = ?)',
    orderBy: 'id',
  },
  { name: 'company_settings', where: OWN, orderBy: 'environment' },
  {
    name: 'chip_keys',
    where: OWN,
    orderBy: 'environment',
    secretColumns: ['meta_read_key', 'file_read_key'],
    onlyWithSecrets: true,
  },
  { name: 'chips', where: OWN, orderBy: 'id', serial: 'id' },
  { name: 'asset_twins', where: OWN, orderBy: 'id', serial: 'id' },
  { name: 'passports', where: OWN, orderBy: 'id', serial: 'id' },
  { name: 'passport_versions', where: OWN, orderBy: 'id', serial: 'id' },
  { name: 'passport_content', where: OWN, orderBy: 'passport_id, spec_group' },
  { name: 'passport_credentials', where: OWN_PASSPORT, orderBy: 'passport_id' },
  { name: 'untp_credentials', where: OWN_PASSPORT, orderBy: 'passport_id' },
  { name: 'untp_variant_credentials', where: OWN_PASSPORT, orderBy: 'passport_id, access_role' },
  {
    name: 'passport_links',
    where:
      'original_passport_id in (select id from passports where company_id = ?) and ' +
      'successor_passport_id in (select id from passports where company_id = ?)',
    orderBy: 'id',
    serial: 'id',
  },
  { name: 'supply_chain_events', where: OWN, orderBy: 'id', serial: 'id' },
  { name: 'dpp_levels', where: OWN, orderBy: 'id', serial: 'id' },
  { name: 'dpp_level_content', where: OWN_LEVEL, orderBy: 'level_id, spec_group' },
  { name: 'dpp_level_versions', where: OWN_LEVEL, orderBy: 'id', serial: 'id' },
  { name: 'disclosure_grants', where: OWN, orderBy: 'id' },
  {
    name: 'webhook_endpoints',
    where: `${OWN} and deleted_at is null`,
    orderBy: 'id',
    secretColumns: ['secret', 'previous_secret'],
  },
];

/** How many `?` a table's filter binds (each is the company's id). */
export function bindings(table: ExitTable, companyId: string): string[] {
  return Array.from({ length: table.where.split('?').length - 1 }, () => companyId);
}
