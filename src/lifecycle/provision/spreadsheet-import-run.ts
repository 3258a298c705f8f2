import type { EntityManager } from '@mikro-orm/postgresql';
import type { TenantScope } from '../../platform/db/tenant-scope.ts';
import type { SpreadsheetImportOutcome } from '../../processes/spreadsheet-import.ts';
import { insertTwins } from './provision.ts';
import { checkRow, type ImportRowError, readSpreadsheet } from './spreadsheet-import-rows.ts';
import {
  findImport,
  finishImport,
  importTwinId,
  runningImport,
  saveProgress,
} from './spreadsheet-import-store.ts';

/** Rows checked, or written in one transaction, between two commits of the job's progress. */
export const IMPORT_CHUNK = 250;

/** What a step found when its job had already ended (another attempt ended it): that ending. */
async function ended(
  em: EntityManager,
  scope: TenantScope,
  jobId: string,
): Promise<SpreadsheetImportOutcome> {
  const job = await findImport(em, scope, jobId);
  if (job?.state === 'done') return { state: 'done', written: job.written };
  if (job?.state === 'refused') return { state: 'refused', problems: job.errors.length };
  throw new Error(`spreadsheet import ${jobId} is ${job ? job.state : 'gone'}`);
}

/**
 * The check step: every row of the job's file against bulk provisioning's rule, progress committed every
 * IMPORT_CHUNK rows. Any bad row ends the job refused with every bad row listed (nothing is written); else the
 * job moves on to writing. Answers `writing` (carry on) or the job's end.
 */
export async function checkImport(
  em: EntityManager,
  scope: TenantScope,
  jobId: string,
): Promise<SpreadsheetImportOutcome | { state: 'writing' }> {
  const job = await runningImport(em, scope, jobId);
  if (!job) return ended(em, scope, jobId);
  if (job.state === 'writing') return { state: 'writing' };
  const { problems, rows } = readSpreadsheet(job.file);
  const errors: ImportRowError[] = [...problems];
  for (const [n, row] of rows.entries()) {
    const checked = checkRow(row);
    if ('problems' in checked) errors.push(...checked.problems);
    if ((n + 1) % IMPORT_CHUNK === 0)
      await saveProgress(em, jobId, { state: 'checking', total: rows.length, processed: n + 1 });
  }
  if (errors.length > 0) {
    await saveProgress(em, jobId, { state: 'checking', total: rows.length, processed: rows.length });
    await finishImport(em, jobId, { state: 'refused', errors });
    return { state: 'refused', problems: errors.length };
  }
  await saveProgress(em, jobId, { state: 'writing', total: rows.length, processed: 0 });
  return { state: 'writing' };
}

/**
 * The write step: the job's rows as twins, IMPORT_CHUNK rows per transaction that also commits the progress,
 * from the first chunk not committed yet. Each twin's id derives from the job and its row and an existing id is
 * skipped, so a retried or concurrent attempt (or one after a worker died mid-chunk) writes every twin once.
 */
export async function writeImport(
  em: EntityManager,
  scope: TenantScope,
  jobId: string,
): Promise<SpreadsheetImportOutcome> {
  const job = await runningImport(em, scope, jobId);
  if (!job) return ended(em, scope, jobId);
  if (job.state !== 'writing') throw new Error(`spreadsheet import ${jobId} is not checked yet`);
  const twins = readSpreadsheet(job.file).rows.map((row) => {
    const checked = checkRow(row);
    if (!('item' in checked)) throw new Error(`spreadsheet import ${jobId}: row ${row.row} is not valid`);
    return { id: importTwinId(jobId, row.row), item: checked.item };
  });
  const total = twins.length;
  for (let start = job.processed - (job.processed % IMPORT_CHUNK); start < total; start += IMPORT_CHUNK) {
    const chunk = twins.slice(start, start + IMPORT_CHUNK);
    await em.transactional(async (tx) => {
      await insertTwins(tx, scope, chunk);
      await saveProgress(tx, jobId, { state: 'writing', total, processed: start + chunk.length });
    });
  }
  await finishImport(em, jobId, { state: 'done', written: total });
  return { state: 'done', written: total };
}

/** Ends a job the workflow could not finish: failed (its twins written so far stay; uploading again resumes). */
export async function failImport(em: EntityManager, jobId: string): Promise<void> {
  await finishImport(em, jobId, { state: 'failed' });
}
