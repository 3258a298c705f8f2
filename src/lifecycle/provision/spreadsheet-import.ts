import { createHash } from 'node:crypto';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { TenantScope } from '../../platform/db/tenant-scope.ts';
import { parseCsv } from './csv.ts';
import { type ErpMetadata, provisionTwinsBulk } from './provision.ts';
import { readXlsx, SpreadsheetUnreadable } from './xlsx.ts';

/** The columns of an import: those of a bulk provisioning item's erp_metadata (docs/console.md). */
export const IMPORT_COLUMNS = ['material_number', 'order_id', 'conformity_url'] as const;
const REQUIRED = ['material_number', 'order_id'];
/** Rows checked or written between two progress updates. */
const STEP = 250;
/** Finished jobs are kept this long for the console to read their outcome. */
const KEEP_MS = 60 * 60 * 1000;

export interface ImportRowError {
  /** The spreadsheet's row number (the header is row 1). */
  row: number;
  column: string;
  message: string;
}

/** The bulk provisioning rule for one item: the problems of its fields, by column. */
export type RowCheck = (item: Record<string, string>) => { column: string; message: string }[];

export interface ImportJob {
  id: string;
  scope: TenantScope;
  state: 'checking' | 'writing' | 'done' | 'refused' | 'failed';
  /** Data rows in the file (blank rows not counted). */
  total: number;
  /** Rows checked (state checking) or written (state writing). */
  processed: number;
  errors: ImportRowError[];
  /** Twins written (done): by this job, or by the earlier import of the same file. */
  written: number;
  /** The same file was imported before: nothing was written this time. */
  alreadyImported: boolean;
  finishedAt: number | null;
}

const jobs = new Map<string, ImportJob>();

/** The job of this id in the caller's company and environment, if this process has it. */
export function importJob(scope: TenantScope, id: string): ImportJob | undefined {
  const job = jobs.get(id);
  return job && job.scope.companyId === scope.companyId && job.scope.environment === scope.environment
    ? job
    : undefined;
}

/**
 * Starts (or finds) the import of a spreadsheet (CSV or XLSX) of twins to reserve, as bulk provisioning reserves
 * them: every row checked with `check`, then all written in one transaction or, if any row is bad, none (every
 * bad row listed). The job is identified by the file's hash in the company's environment, so uploading the same
 * file while it runs answers the running job, and after it was written answers "already imported".
 */
export function startImport(
  em: EntityManager,
  scope: TenantScope,
  file: Buffer,
  check: RowCheck,
  maxRows: number,
): ImportJob {
  forgetOldJobs();
  const sha256 = createHash('sha256').update(file).digest('hex');
  const id = createHash('sha256')
    .update(`${scope.companyId}:${scope.environment}:${sha256}`)
    .digest('base64url')
    .slice(0, 24);
  const existing = jobs.get(id);
  // A running import of the file is the answer; a finished one is checked again (written: "already imported").
  if (existing && existing.finishedAt === null) return existing;
  const job: ImportJob = {
    id,
    scope,
    state: 'checking',
    total: 0,
    processed: 0,
    errors: [],
    written: 0,
    alreadyImported: false,
    finishedAt: null,
  };
  jobs.set(id, job);
  void run(em, job, file, sha256, check, maxRows).catch(() => {
    job.state = 'failed';
    job.finishedAt = Date.now();
  });
  return job;
}

async function run(
  em: EntityManager,
  job: ImportJob,
  file: Buffer,
  sha256: string,
  check: RowCheck,
  maxRows: number,
): Promise<void> {
  const finish = (state: ImportJob['state']) => {
    job.state = state;
    job.finishedAt = Date.now();
  };
  const [before] = await em.execute<{ row_count: number }[]>(
    'select row_count from spreadsheet_imports where company_id = ? and environment = ? and file_sha256 = ?',
    [job.scope.companyId, job.scope.environment, sha256],
  );
  if (before) {
    Object.assign(job, { alreadyImported: true, written: before.row_count, total: before.row_count });
    job.processed = job.total;
    return finish('done');
  }
  const items = await checkRows(job, file, check, maxRows);
  if (job.errors.length > 0 || items === undefined) return finish('refused');

  job.state = 'writing';
  job.processed = 0;
  const first = await em.transactional(async (tx) => {
    const [recorded] = await tx.execute<{ file_sha256: string }[]>(
      `insert into spreadsheet_imports (company_id, environment, file_sha256, row_count) values (?, ?, ?, ?)
       on conflict do nothing returning file_sha256`,
      [job.scope.companyId, job.scope.environment, sha256, items.length],
    );
    if (!recorded) return false;
    for (let start = 0; start < items.length; start += STEP) {
      const chunk = items.slice(start, start + STEP);
      await provisionTwinsBulk(tx, job.scope, chunk);
      job.processed = start + chunk.length;
    }
    return true;
  });
  job.alreadyImported = !first;
  job.written = items.length;
  finish('done');
}

/** Reads the file and checks every row; the items to write, or undefined when the file itself is unusable. */
async function checkRows(
  job: ImportJob,
  file: Buffer,
  check: RowCheck,
  maxRows: number,
): Promise<ErpMetadata[] | undefined> {
  const refuse = (row: number, column: string, message: string) => {
    job.errors.push({ row, column, message });
    return undefined;
  };
  let rows: string[][];
  try {
    rows = isZip(file) ? readXlsx(file) : parseCsv(file.toString('utf8'));
  } catch (error) {
    if (error instanceof SpreadsheetUnreadable) return refuse(1, '', error.message);
    throw error;
  }
  const header = (rows[0] ?? []).map((cell) => cell.trim().toLowerCase());
  for (const [i, name] of header.entries()) {
    if (name !== '' && !(IMPORT_COLUMNS as readonly string[]).includes(name))
      refuse(1, name, `Unknown column: the columns are ${IMPORT_COLUMNS.join(', ')}`);
    else if (header.indexOf(name) !== i && name !== '') refuse(1, name, 'The column appears twice');
  }
  for (const name of REQUIRED)
    if (!header.includes(name)) refuse(1, name, 'Required column missing from the header row');
  if (job.errors.length > 0) return undefined;

  const data = rows
    .map((cells, index) => ({ cells, row: index + 1 }))
    .slice(1)
    .filter(({ cells }) => cells.some((cell) => cell.trim() !== ''));
  job.total = data.length;
  if (data.length === 0) return refuse(2, '', 'The spreadsheet has no rows under its header');
  if (data.length > maxRows)
    return refuse(maxRows + 2, '', `At most ${maxRows} rows per file: split it into several files`);

  const items: ErpMetadata[] = [];
  for (const [n, { cells, row }] of data.entries()) {
    const item: Record<string, string> = {};
    for (const [i, name] of header.entries()) {
      const value = cells[i]?.trim() ?? '';
      if (name !== '' && value !== '') item[name] = value;
    }
    const problems = check(item);
    for (const problem of problems) job.errors.push({ row, ...problem });
    if (problems.length === 0) items.push(item as unknown as ErpMetadata);
    if ((n + 1) % STEP === 0) {
      job.processed = n + 1;
      await nextTurn();
    }
  }
  job.processed = data.length;
  return items;
}

function isZip(file: Buffer): boolean {
  return file.length > 4 && file.readUInt32LE(0) === 0x04034b50;
}

function forgetOldJobs(): void {
  const now = Date.now();
  for (const [id, job] of jobs)
    if (job.finishedAt !== null && now - job.finishedAt > KEEP_MS) jobs.delete(id);
}
