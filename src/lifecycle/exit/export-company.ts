import type { EntityManager } from '@mikro-orm/postgresql';
import { findLevelByKey } from '../../passport/levels/levels.ts';
import type { Environment } from '../../platform/config/config.ts';
import type { SecretBox } from '../../platform/secret-box.ts';
import { BUNDLE_FORMAT, BundleWriter, MANIFEST } from './bundle-writer.ts';
import { bindings, EXIT_TABLES, type ExitTable } from './exit-tables.ts';
import { type ItemRow, itemDirectory, writeItemViews, writeLevelViews } from './open-formats.ts';
import { resolverRules } from './resolver-rules.ts';
import { eachRow, inSnapshot } from './row-cursor.ts';
import { revealSecrets } from './secrets.ts';

export interface ExportOptions {
  companyId: string;
  dir: string;
  /** The instance's PUBLIC_BASE_URL: the host of every Digital Link written. */
  publicBaseUrl: string;
  /**
   * Webhook signing secrets and chip keys written in clear (opened with this box), or left out when absent:
   * docs/exit.md "Secrets".
   */
  secrets: SecretBox | undefined;
  /** Progress lines (stderr in the CLI). */
  progress: (line: string) => void;
}

export interface ExportSummary {
  rows: Record<string, number>;
  passports: number;
  levels: number;
  files: number;
}

/** Every column of a table but its sealed secrets, when those stay behind. */
async function selectList(tx: EntityManager, table: ExitTable, withSecrets: boolean): Promise<string> {
  if (withSecrets || !table.secretColumns) return 't.*';
  const columns = await tx.execute<{ column_name: string }[]>(
    `select column_name from information_schema.columns
      where table_schema = current_schema() and table_name = ? order by ordinal_position`,
    [table.name],
  );
  return columns
    .map((c) => c.column_name)
    .filter((name) => !table.secretColumns!.includes(name))
    .map((name) => `t.${name}`)
    .join(', ');
}

const ITEMS = `select p.id, p.environment, coalesce(p.gtin, '00000000000000') as gtin, p.token_id,
    pc.credential as vc, uc.data_integrity as untp, uc.jwt as untp_jwt,
    (select json_agg(json_build_object('role', v.access_role, 'dataIntegrity', v.data_integrity, 'jwt', v.jwt)
       order by v.access_role) from untp_variant_credentials v where v.passport_id = p.id) as variants
  from passports p
  left join passport_credentials pc on pc.passport_id = p.id
  left join untp_credentials uc on uc.passport_id = p.id
  where p.company_id = ? order by p.id`;

interface ItemWithCredentials extends ItemRow {
  vc: string | null;
  untp: string | null;
  untp_jwt: string | null;
  variants: { role: string; dataIntegrity: string; jwt: string }[] | null;
}

/**
 * Writes one company's passports to `dir` (docs/exit.md): `data/<table>.jsonl` (its rows as stored, what an
 * import restores), per item and level passport its open formats, the resolver rules, and `manifest.json`
 * listing every file with its sha256. Rows and passports are streamed: memory does not grow with their number.
 */
export async function exportCompany(em: EntityManager, options: ExportOptions): Promise<ExportSummary> {
  const writer = new BundleWriter(options.dir);
  const { companyId, progress } = options;
  const summary: ExportSummary = { rows: {}, passports: 0, levels: 0, files: 0 };
  const views = { em, publicBaseUrl: options.publicBaseUrl };
  await inSnapshot(em, async (tx) => {
    const box = options.secrets;
    for (const table of EXIT_TABLES) {
      if (table.onlyWithSecrets && !box) continue;
      const file = await writer.lines(`data/${table.name}.jsonl`);
      const columns = await selectList(tx, table, box !== undefined);
      const sql = `select ${columns} from ${table.name} t where ${table.where} order by ${table.orderBy}`;
      const reveal = box && table.secretColumns;
      summary.rows[table.name] = await eachRow(tx, sql, bindings(table, companyId), async (rows) => {
        for (const row of rows) {
          await file.add(reveal ? JSON.stringify(revealSecrets(table.name, JSON.parse(row), box)) : row);
        }
      });
      await file.close();
      progress(`rows  ${table.name}: ${summary.rows[table.name]}`);
    }
    await eachRow(tx, ITEMS, [companyId], async (rows) => {
      for (const text of rows) {
        const item = JSON.parse(text) as ItemWithCredentials;
        await writeCredentials(writer, item);
        await writeItemViews(writer, views, item);
        summary.passports++;
      }
      progress(`passports  ${summary.passports}`);
    });
    const levels = await tx.execute<{ environment: Environment; gtin: string; lot: string | null }[]>(
      'select environment, gtin, lot from dpp_levels where company_id = ? order by id',
      [companyId],
    );
    for (const key of levels) {
      const level = await findLevelByKey(em, key.environment, key.gtin, key.lot);
      if (level) await writeLevelViews(writer, views, level);
      summary.levels++;
    }
    progress(`levels  ${summary.levels}`);
    await writer.writeJson('resolver-rules.json', await resolverRules(tx, companyId, options.publicBaseUrl));
  });
  const manifest = {
    format: BUNDLE_FORMAT,
    companyId,
    publicBaseUrl: options.publicBaseUrl,
    exportedAt: new Date().toISOString(),
    secretsIncluded: options.secrets !== undefined,
    tables: EXIT_TABLES.filter((table) => summary.rows[table.name] !== undefined).map((table) => ({
      name: table.name,
      rows: summary.rows[table.name],
    })),
    files: writer.files,
  };
  summary.files = writer.files.length;
  await writer.writeJson(MANIFEST, manifest);
  return summary;
}

/** The signed credentials as stored: the bytes the resolver serves, never rebuilt or re-signed. */
async function writeCredentials(writer: BundleWriter, item: ItemWithCredentials): Promise<void> {
  const dir = itemDirectory(item);
  if (item.vc !== null) await writer.write(`${dir}/vc.json`, item.vc);
  if (item.untp !== null) await writer.write(`${dir}/untp.json`, item.untp);
  if (item.untp_jwt !== null) await writer.write(`${dir}/untp.jwt`, item.untp_jwt);
  for (const variant of item.variants ?? []) {
    await writer.write(`${dir}/untp-${variant.role}.json`, variant.dataIntegrity);
    await writer.write(`${dir}/untp-${variant.role}.jwt`, variant.jwt);
  }
}
