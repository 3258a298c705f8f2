import { proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities/index.ts';
import type {
  SpreadsheetImportInput,
  SpreadsheetImportOutcome,
} from '../src/processes/spreadsheet-import.ts';

// Each step commits its progress a chunk at a time and heartbeats while it runs: a worker that dies is noticed
// in seconds and the step's retry carries on from the last chunk committed. About a quarter of an hour of
// retries (a database outage) before the job is marked failed; uploading the file again resumes it.
const steps = proxyActivities<Activities>({
  startToCloseTimeout: '10 minutes',
  heartbeatTimeout: '15 seconds',
  retry: {
    initialInterval: '1 second',
    maximumInterval: '1 minute',
    maximumAttempts: 20,
    nonRetryableErrorTypes: ['DomainError'],
  },
});
const records = proxyActivities<Activities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', maximumInterval: '30 seconds', maximumAttempts: 10 },
});

/**
 * A spreadsheet import (id `spreadsheet-import:{env}:{jobId}`; docs/console.md "Add passports"):
 * 1. checkImportRows — every row against bulk provisioning's rule; any bad row ends the job refused, listing
 *    them, and nothing is written;
 * 2. writeImportRows — the twins, a chunk per transaction, exactly once (ids derived from the job and row).
 * A step that fails for good marks the job failed (failImport) and fails the run, so an upload starts it anew.
 */
export async function importSpreadsheet(input: SpreadsheetImportInput): Promise<SpreadsheetImportOutcome> {
  try {
    const checked = await steps.checkImportRows(input);
    if (checked.state !== 'writing') return checked;
    return await steps.writeImportRows(input);
  } catch (error) {
    await records.failImport(input);
    throw error;
  }
}
