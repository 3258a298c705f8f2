import type { TenantScope } from '../platform/db/tenant-scope.ts';

export interface SpreadsheetImportInput {
  scope: TenantScope;
  /** The job's id (spreadsheet_imports.id); its row holds the file. */
  jobId: string;
}

/** How a job ended: every row written, or refused (bad rows listed on the job, nothing written). */
export type SpreadsheetImportOutcome =
  | { state: 'done'; written: number }
  | { state: 'refused'; problems: number };

/** The spreadsheet import workflow: its type name (as the worker registers it) and its signature. */
export const SPREADSHEET_IMPORT_WORKFLOW = 'importSpreadsheet';
export type SpreadsheetImportWorkflow = (input: SpreadsheetImportInput) => Promise<SpreadsheetImportOutcome>;
