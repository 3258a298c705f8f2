import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { SecretBox } from '../../platform/secret-box.ts';
import { BUNDLE_FORMAT, MANIFEST, type ManifestFile } from './bundle-writer.ts';
import { EXIT_TABLES, type ExitTable } from './exit-tables.ts';
import { recordOldHost } from './old-hosts.ts';
import { type ExitRow, sealSecrets } from './secrets.ts';

const BATCH = 500;

export interface Manifest {
  format: string;
  companyId: string;
  publicBaseUrl: string;
  exportedAt: string;
  secretsIncluded: boolean;
  tables: { name: string; rows: number }[];
  files: ManifestFile[];
}

export interface ImportOptions {
  dir: string;
  /** Seals the secrets the bundle carries (this instance's DATA_ENCRYPTION_KEY). */
  secrets: SecretBox;
  /** The old instance's base URL: requests addressed to it are redirected here (old-hosts.ts). */
  oldHost?: string | undefined;
  progress: (line: string) => void;
}

export interface ImportSummary {
  companyId: string;
  /** Per table: rows inserted, and rows already there (a second import inserts none). */
  tables: { name: string; inserted: number; present: number }[];
}

async function fileSha256(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** The bundle's manifest, once every file it lists is there with its sha256; throws otherwise. */
export async function readVerifiedManifest(dir: string): Promise<Manifest> {
  const manifest = JSON.parse(await readFile(join(dir, MANIFEST), 'utf8')) as Manifest;
  if (manifest.format !== BUNDLE_FORMAT) {
    throw new Error(`${join(dir, MANIFEST)} is not a ${BUNDLE_FORMAT} bundle (format ${manifest.format}).`);
  }
  for (const file of manifest.files) {
    const actual = await fileSha256(join(dir, file.path)).catch(() => 'missing');
    if (actual !== file.sha256) {
      throw new Error(`${file.path}: sha256 ${actual}, the manifest says ${file.sha256}; nothing imported.`);
    }
  }
  return manifest;
}

/**
 * Restores a bundle written by exportCompany into this instance's database, in one transaction (all or
 * nothing): every row as exported (credentials byte for byte, ids kept, so every Digital Link, DPP id and
 * shell id stays the same), secrets sealed under this instance's key. Rows already present (same primary
 * key) are left as they are: importing the same bundle again changes nothing.
 */
export async function importCompany(em: EntityManager, options: ImportOptions): Promise<ImportSummary> {
  const manifest = await readVerifiedManifest(options.dir);
  options.progress(`verified  ${manifest.files.length} files against the manifest`);
  const listed = new Set(manifest.tables.map((table) => table.name));
  const summary: ImportSummary = { companyId: manifest.companyId, tables: [] };
  await em.fork().transactional(async (tx) => {
    for (const table of EXIT_TABLES.filter((t) => listed.has(t.name))) {
      const counts = { name: table.name, inserted: 0, present: 0 };
      const rows = createInterface({
        input: createReadStream(join(options.dir, `data/${table.name}.jsonl`)),
      });
      let batch: ExitRow[] = [];
      const flush = async () => {
        const inserted = await insertRows(tx, table, batch);
        counts.inserted += inserted;
        counts.present += batch.length - inserted;
        batch = [];
      };
      for await (const line of rows) {
        if (line === '') continue;
        const row = JSON.parse(line) as ExitRow;
        batch.push(
          table.secretColumns ? sealSecrets(table.name, row, options.secrets, manifest.secretsIncluded) : row,
        );
        if (batch.length >= BATCH) await flush();
      }
      if (batch.length > 0) await flush();
      if (table.serial) await moveSequence(tx, table.name, table.serial);
      summary.tables.push(counts);
      options.progress(`rows  ${table.name}: ${counts.inserted} inserted, ${counts.present} already there`);
    }
    if (options.oldHost) await recordOldHost(tx, options.oldHost, manifest.companyId);
  });
  return summary;
}

/** Inserts the rows not there yet (by primary key or any unique key); answers how many it inserted. */
async function insertRows(tx: EntityManager, table: ExitTable, rows: ExitRow[]): Promise<number> {
  const columns = Object.keys(rows[0]!)
    .map((name) => `"${name.replaceAll('"', '""')}"`)
    .join(', ');
  const [result] = await tx.execute<{ count: number }[]>(
    `with inserted as (
       insert into ${table.name} (${columns})
       select ${columns} from jsonb_populate_recordset(null::${table.name}, ?::jsonb)
       on conflict do nothing returning 1)
     select count(*)::int as count from inserted`,
    [JSON.stringify(rows)],
  );
  return result?.count ?? 0;
}

/** A serial column's sequence moved past the imported ids, so rows created later on take new ones. */
async function moveSequence(tx: EntityManager, table: string, column: string): Promise<void> {
  await tx.execute(
    `select setval(pg_get_serial_sequence(?, ?), greatest((select coalesce(max(${column}), 0) from ${table}), 1))`,
    [table, column],
  );
}
