import { createHash } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { requireWorkflows, startOrJoin, type WorkflowGateway } from '../../adapters/temporal/start.ts';
import type { TenantScope } from '../../platform/db/tenant-scope.ts';
import {
  SPREADSHEET_IMPORT_WORKFLOW,
  type SpreadsheetImportWorkflow,
} from '../../processes/spreadsheet-import.ts';
import { workflowIds } from '../../processes/workflow-ids.ts';
import { type ImportJob, recordImport } from './spreadsheet-import-store.ts';

/**
 * Starts (or finds) the import of a spreadsheet (CSV or XLSX) of twins to reserve, as bulk provisioning reserves
 * them (docs/console.md "Add passports"). The job is a row of spreadsheet_imports, keyed by the file's SHA-256 in
 * the company's environment, run by the `importSpreadsheet` workflow on the worker: every row checked, then, if
 * none is bad, all written (spreadsheet-import-run.ts). Uploading the same file while it runs answers the running
 * job (and starts its workflow if it never started); once written, `alreadyImported` and nothing more is written;
 * a failed job starts over and carries on where it stopped.
 */
export async function startImport(
  deps: { em: EntityManager; workflows: WorkflowGateway | undefined },
  scope: TenantScope,
  upload: { file: Buffer; fileName?: string | undefined },
): Promise<{ job: ImportJob; alreadyImported: boolean }> {
  const workflows = requireWorkflows(deps.workflows);
  const sha256 = createHash('sha256').update(upload.file).digest('hex');
  const { job, started } = await recordImport(deps.em, scope, {
    sha256,
    ...upload,
    fileName: upload.fileName,
  });
  if (job.state === 'checking' || job.state === 'writing')
    await startImportWorkflow(workflows, scope, job.id, upload.fileName);
  return { job, alreadyImported: job.state === 'done' && !started };
}

/** Starts the job's workflow, or joins the run going; a run that failed is started again. */
export async function startImportWorkflow(
  gateway: WorkflowGateway,
  scope: TenantScope,
  jobId: string,
  fileName: string | undefined,
): Promise<void> {
  await startOrJoin<SpreadsheetImportWorkflow>(gateway, SPREADSHEET_IMPORT_WORKFLOW, {
    workflowId: workflowIds.spreadsheetImport(scope.environment, jobId),
    environment: scope.environment,
    args: [{ scope, jobId }],
    summary: `Import ${fileName ?? 'a spreadsheet'} (job ${jobId})`,
    searchAttributes: { environment: scope.environment, company: scope.companyId },
  });
}
