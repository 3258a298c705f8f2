import assert from 'node:assert/strict';
import { ApplicationFailure } from '@temporalio/common';
import { describe, test } from 'vitest';
import type { SpreadsheetImportInput } from '../../src/processes/spreadsheet-import.ts';
import { importSpreadsheet } from '../../workflows/index.ts';
import { failureOf, scope, workflowHarness } from './support.ts';

const harness = workflowHarness();
const input: SpreadsheetImportInput = { scope, jobId: 'job-1' };

/** The import workflow's order: check, then write only if every row is valid; a step that gives up fails the job. */
describe('spreadsheet import workflow', () => {
  test('checks, then writes', async () => {
    const stubs = {
      checkImportRows: () => ({ state: 'writing' as const }),
      writeImportRows: () => ({ state: 'done' as const, written: 3 }),
    };
    await harness.withWorker(stubs, async ({ start, log }) => {
      assert.deepEqual(await (await start(importSpreadsheet, input)).result(), { state: 'done', written: 3 });
      assert.deepEqual(log.names(), ['checkImportRows', 'writeImportRows']);
      assert.deepEqual(log.inputsOf('writeImportRows'), [input]);
    });
  });

  test('a refused file is never written', async () => {
    const stubs = { checkImportRows: () => ({ state: 'refused' as const, problems: 2 }) };
    await harness.withWorker(stubs, async ({ start, log }) => {
      assert.deepEqual(await (await start(importSpreadsheet, input)).result(), {
        state: 'refused',
        problems: 2,
      });
      assert.deepEqual(log.names(), ['checkImportRows']);
    });
  });

  test('a write that fails for good marks the job failed and fails the run (an upload starts it again)', async () => {
    const stubs = {
      checkImportRows: () => ({ state: 'writing' as const }),
      writeImportRows: () => {
        throw ApplicationFailure.create({ type: 'DomainError', message: 'refused' });
      },
      failImport: () => undefined,
    };
    await harness.withWorker(stubs, async ({ start, log }) => {
      const failure = await failureOf((await start(importSpreadsheet, input)).result());
      assert.equal(failure.type, 'DomainError');
      assert.deepEqual(log.names(), ['checkImportRows', 'writeImportRows', 'failImport']);
    });
  });
});
