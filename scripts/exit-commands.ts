// npm run cli -- export / import: a company's passports out of this instance and into another (docs/exit.md).
import { exportCompany } from '../src/lifecycle/exit/export-company.ts';
import { importCompany } from '../src/lifecycle/exit/import-company.ts';
import type { Config } from '../src/platform/config/config.ts';
import type { OpenDatabase } from '../src/platform/runtime/database.ts';
import { SecretBox } from '../src/platform/secret-box.ts';

export const EXIT_HELP = `  export --company <companyId> --out <dir> [--include-secrets]
      Writes every passport of the company (items, models, batches) with its versions, signed credentials as
      stored, access grants, webhook endpoints and resolver rules to <dir>, in open formats (AAS environment,
      UNTP credentials, GS1 linksets, JSON Lines of the rows) with manifest.json (every file's sha256).
      Webhook secrets and chip keys only with --include-secrets (then in clear: keep the bundle safe).
      Progress on stderr.
  import --dir <dir> [--old-host <url>]
      Restores such a bundle into this instance: every Digital Link answers as on the old one. Rows already
      there are left alone, so a second import changes nothing. --old-host: requests addressed to the old
      instance's host are redirected to this one's PUBLIC_BASE_URL (docs/exit.md).`;

const progress = (line: string) => process.stderr.write(`${line}\n`);

export async function runExport(
  database: OpenDatabase,
  config: Config,
  options: { company: string; out: string; includeSecrets: boolean },
): Promise<void> {
  const summary = await exportCompany(database.orm.em, {
    companyId: options.company,
    dir: options.out,
    publicBaseUrl: config.publicBaseUrl,
    secrets: options.includeSecrets ? new SecretBox(config.secrets.dataEncryptionKey) : undefined,
    progress,
  });
  console.log(
    `exported  ${summary.passports} item passports, ${summary.levels} model/batch passports, ` +
      `${summary.files} files to ${options.out} (manifest.json)`,
  );
}

export async function runImport(
  database: OpenDatabase,
  config: Config,
  options: { dir: string; oldHost: string | undefined },
): Promise<void> {
  const summary = await importCompany(database.orm.em, {
    dir: options.dir,
    secrets: new SecretBox(config.secrets.dataEncryptionKey),
    oldHost: options.oldHost,
    progress,
  });
  const inserted = summary.tables.reduce((sum, table) => sum + table.inserted, 0);
  const present = summary.tables.reduce((sum, table) => sum + table.present, 0);
  console.log(
    `imported  company ${summary.companyId}: ${inserted} rows inserted, ${present} already there` +
      (options.oldHost ? `; requests to ${options.oldHost} are redirected here` : ''),
  );
}
