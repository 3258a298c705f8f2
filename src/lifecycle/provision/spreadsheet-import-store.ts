import { createHash } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { serviceInternalIdOf } from '../../passport/record/service-id.ts';
import type { TenantScope } from '../../platform/db/tenant-scope.ts';
import type { ImportRowError } from './spreadsheet-import-rows.ts';

/** A spreadsheet import job as spreadsheet_imports holds it (migration 20261128100000). */
export interface ImportJob {
  id: string;
  state: 'checking' | 'writing' | 'done' | 'refused' | 'failed';
  /** Data rows in the file (blank rows not counted); 0 until the file is read. */
  total: number;
  /** Rows checked (state checking) or written (state writing); committed a chunk at a time. */
  processed: number;
  errors: ImportRowError[];
  /** Twins the job wrote (done). */
  written: number;
}

/** Most bad rows kept (and shown) of one file. */
export const IMPORT_MAX_ERRORS = 1000;

/** The job of a file in a company's environment: the same file gives the same id, wherever it is uploaded. */
export function importJobId(scope: TenantScope, fileSha256: string): string {
  return createHash('sha256')
    .update(`${scope.companyId}:${scope.environment}:${fileSha256}`)
    .digest('base64url')
    .slice(0, 24);
}

/**
 * The service internal id of the twin a job writes for a spreadsheet row: derived from both, so writing a chunk
 * again (an activity retried, a worker that died mid-write) inserts nothing twice.
 */
export function importTwinId(jobId: string, row: number): string {
  return serviceInternalIdOf(createHash('sha256').update(`spreadsheet-import:${jobId}:${row}`).digest());
}

const COLUMNS = 'id, state, total, processed, errors, row_count';
type Row = {
  id: string;
  state: ImportJob['state'];
  total: number;
  processed: number;
  errors: unknown;
  row_count: number;
};
const jobOf = (r: Row): ImportJob => ({
  id: r.id,
  state: r.state,
  total: r.total,
  processed: r.processed,
  errors: (typeof r.errors === 'string' ? JSON.parse(r.errors) : r.errors) as ImportRowError[],
  written: r.row_count,
});

/**
 * Records the upload of a file: a new job (state checking, the file kept for the worker), or the file's job as
 * it is; a failed job starts over. `started`: this call created or restarted the job.
 */
export async function recordImport(
  em: EntityManager,
  scope: TenantScope,
  upload: { sha256: string; fileName: string | undefined; file: Buffer },
): Promise<{ job: ImportJob; started: boolean }> {
  const id = importJobId(scope, upload.sha256);
  const [written] = await em.execute<Row[]>(
    `insert into spreadsheet_imports as s (id, company_id, environment, file_sha256, file_name, file, state)
     values (?, ?, ?, ?, ?, ?, 'checking')
     on conflict (company_id, environment, file_sha256) do update
       set file = excluded.file, file_name = excluded.file_name, state = 'checking', total = 0, processed = 0,
         errors = '[]', row_count = 0, finished_at = null, updated_at = now()
       where s.state = 'failed'
     returning ${COLUMNS}`,
    [id, scope.companyId, scope.environment, upload.sha256, upload.fileName ?? null, upload.file],
  );
  if (written) return { job: jobOf(written), started: true };
  return { job: (await findImport(em, scope, id))!, started: false };
}

/** The job of this id in the scope's company and environment, if any. */
export async function findImport(
  em: EntityManager,
  scope: TenantScope,
  id: string,
): Promise<ImportJob | undefined> {
  const [row] = await em.execute<Row[]>(
    `select ${COLUMNS} from spreadsheet_imports where id = ? and company_id = ? and environment = ?`,
    [id, scope.companyId, scope.environment],
  );
  return row ? jobOf(row) : undefined;
}

/** The file of a running job, with where it stands; undefined once it ended (its file is dropped then). */
export async function runningImport(
  em: EntityManager,
  scope: TenantScope,
  id: string,
): Promise<{ file: Buffer; state: 'checking' | 'writing'; processed: number } | undefined> {
  const [row] = await em.execute<{ file: Buffer; state: 'checking' | 'writing'; processed: number }[]>(
    `select file, state, processed from spreadsheet_imports
     where id = ? and company_id = ? and environment = ? and state in ('checking', 'writing')`,
    [id, scope.companyId, scope.environment],
  );
  return row;
}

/** Commits a running job's progress: its state, rows counted, rows checked or written. */
export async function saveProgress(
  em: EntityManager,
  id: string,
  progress: { state: 'checking' | 'writing'; total: number; processed: number },
): Promise<void> {
  await em.execute(
    // Never backwards: two runs of one step (a retry beside a stalled attempt) both report, and a stalled check
    // reporting after the job moved on to writing changes nothing.
    `update spreadsheet_imports
     set total = ?, processed = case when state = ? then greatest(processed, ?) else ? end, state = ?,
       updated_at = now()
     where id = ? and (state = ? or (state = 'checking' and ? = 'writing'))`,
    [
      progress.total,
      progress.state,
      progress.processed,
      progress.processed,
      progress.state,
      id,
      progress.state,
      progress.state,
    ],
  );
}

/** Ends a running job: done (its twins written), refused (its bad rows kept) or failed. The file goes. */
export async function finishImport(
  em: EntityManager,
  id: string,
  end:
    | { state: 'done'; written: number }
    | { state: 'refused'; errors: ImportRowError[] }
    | { state: 'failed' },
): Promise<void> {
  await em.execute(
    `update spreadsheet_imports set state = ?, errors = ?::jsonb, row_count = ?, file = null,
       processed = case when ? = 'done' then total else processed end, finished_at = now(), updated_at = now()
     where id = ? and state in ('checking', 'writing')`,
    [
      end.state,
      JSON.stringify(end.state === 'refused' ? end.errors.slice(0, IMPORT_MAX_ERRORS) : []),
      end.state === 'done' ? end.written : 0,
      end.state,
      id,
    ],
  );
}
