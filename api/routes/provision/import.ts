import { z } from 'zod';
import { BULK_PROVISION_MAX_ITEMS } from '../../../src/lifecycle/provision/erp-metadata.ts';
import { startImport } from '../../../src/lifecycle/provision/spreadsheet-import.ts';
import { IMPORT_COLUMNS } from '../../../src/lifecycle/provision/spreadsheet-import-rows.ts';
import {
  findImport,
  IMPORT_MAX_ERRORS,
  type ImportJob,
} from '../../../src/lifecycle/provision/spreadsheet-import-store.ts';
import { DomainError } from '../../../src/platform/errors.ts';
import type { AppContext } from '../../context.ts';
import { requireRight } from '../../middleware/require-right.ts';
import { defineRoute } from '../../route.ts';
import type { RouteDeps } from '../deps.ts';

/** A spreadsheet of 10,000 rows with long cells, base64 in JSON. */
const IMPORT_BODY_LIMIT_BYTES = 12 * 1024 * 1024;

const job = z.object({
  id: z.string(),
  state: z
    .enum(['checking', 'writing', 'done', 'refused', 'failed'])
    .describe('refused: some rows are not valid (see errors), nothing was written.'),
  total: z.number().int().describe('Rows under the header (blank rows not counted).'),
  processed: z.number().int().describe('Rows checked (checking) or written (writing).'),
  written: z.number().int(),
  alreadyImported: z.boolean().describe('The same file was imported before: nothing was written this time.'),
  errors: z
    .array(z.object({ row: z.number().int(), column: z.string(), message: z.string() }))
    .describe(`The bad rows (refused), at most ${IMPORT_MAX_ERRORS}.`),
});

const shown = (found: ImportJob, alreadyImported = false) => ({
  id: found.id,
  state: found.state,
  total: found.total,
  processed: found.processed,
  written: found.written,
  alreadyImported,
  errors: found.errors,
});

const ACCESS = 'API keys and OAuth clients, and owners and developers (user token or console session).';

/** POST /v1/erp/provision/imports (a CSV or XLSX of twins), GET /v1/erp/provision/imports/{id} (its progress). */
export function provisionImportRoutes(deps: RouteDeps) {
  return [
    defineRoute({
      method: 'post',
      path: '/v1/erp/provision/imports',
      operationId: 'importProvisionSpreadsheet',
      summary: 'Reserve twins from a spreadsheet (CSV or XLSX): all rows or none, as bulk provisioning.',
      description:
        `Columns (header row): ${IMPORT_COLUMNS.join(', ')}. Answers 202 with a job to poll; the job is stored ` +
        'and run by the worker, so any API process answers its progress and a restart loses nothing. Every ' +
        'row is checked as a bulk provisioning item; any bad row → the job ends `refused` listing every bad ' +
        'row (row number, column, rule) and nothing is written; else all rows are written, each exactly once, ' +
        'progress committed every 250 rows. The same file again answers the same job, or `alreadyImported` ' +
        `once written (nothing written again). At most ${BULK_PROVISION_MAX_ITEMS} rows. ${ACCESS}`,
      tags: ['erp'],
      auth: 'apiKeyOrUser',
      body: z
        .object({
          fileName: z.string().trim().min(1).max(255).optional(),
          content: z.base64().min(1).describe('The file, base64-encoded.'),
        })
        .strict(),
      bodyLimitBytes: IMPORT_BODY_LIMIT_BYTES,
      responses: {
        202: { description: 'The import job.', schema: z.object({ success: z.literal(true), job }) },
        503: { description: 'workflows_unavailable: this process runs without the workflow service.' },
      },
      handler: async (ctx: AppContext, { body }) => {
        await requireRight(ctx, 'managePassports', 'import passports');
        const { job: started, alreadyImported } = await startImport(
          { em: deps.orm.em.fork(), workflows: deps.workflows },
          ctx.state.scope!,
          { file: Buffer.from(body.content, 'base64'), fileName: body.fileName },
        );
        ctx.status = 202;
        ctx.body = { success: true, job: shown(started, alreadyImported) };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/v1/erp/provision/imports/:id',
      operationId: 'getProvisionImport',
      summary: 'A spreadsheet import’s progress, bad rows and outcome.',
      description:
        'Jobs are kept: a finished one answers its outcome (`alreadyImported` is only in the answer to an ' +
        `upload). ${ACCESS.replace('owners and developers', 'every role')}`,
      tags: ['erp'],
      auth: 'apiKeyOrUser',
      params: z.object({ id: z.string().min(1).max(64) }),
      responses: {
        404: { description: 'import_not_found.' },
        200: { description: 'The job.', schema: z.object({ success: z.literal(true), job }) },
      },
      handler: async (ctx: AppContext, { params }) => {
        await requireRight(ctx, 'read', 'see imports');
        const found = await findImport(deps.orm.em.fork(), ctx.state.scope!, params.id);
        if (!found) throw new DomainError('not_found', 'import_not_found', 'No such import.');
        ctx.body = { success: true, job: shown(found) };
      },
    }),
  ];
}
