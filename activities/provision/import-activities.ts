import { Context } from '@temporalio/activity';
import {
  checkImport,
  failImport,
  writeImport,
} from '../../src/lifecycle/provision/spreadsheet-import-run.ts';
import type { SpreadsheetImportInput } from '../../src/processes/spreadsheet-import.ts';
import { type EnvironmentDeps, scopedFor } from '../deps.ts';

/** Runs `step` heartbeating every second, so a worker that dies mid-step is noticed by its heartbeat timeout. */
async function heartbeating<T>(step: () => Promise<T>): Promise<T> {
  const context = Context.current();
  const beat = setInterval(() => context.heartbeat(), 1_000);
  try {
    return await step();
  } finally {
    clearInterval(beat);
  }
}

/** The steps of the spreadsheet import workflow (workflows/spreadsheet-import.ts). */
export function importActivities(deps: EnvironmentDeps) {
  return {
    async checkImportRows(input: SpreadsheetImportInput) {
      const em = scopedFor(deps, input.scope);
      return heartbeating(() => checkImport(em, input.scope, input.jobId));
    },
    async writeImportRows(input: SpreadsheetImportInput) {
      const em = scopedFor(deps, input.scope);
      return heartbeating(() => writeImport(em, input.scope, input.jobId));
    },
    async failImport(input: SpreadsheetImportInput): Promise<void> {
      await failImport(scopedFor(deps, input.scope), input.jobId);
    },
  };
}
