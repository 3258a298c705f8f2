import { z } from 'zod';
import { BULK_PROVISION_MAX_ITEMS, erpMetadata } from '../../../src/lifecycle/provision/erp-metadata.ts';
import {
  IMPORT_COLUMNS,
  type ImportJob,
  importJob,
  type RowCheck,
  startImport,
} from '../../../src/lifecycle/provision/spreadsheet-import.ts';
import { DomainError } from '../../../src/platform/errors.ts';
import type { AppContext } from '../../context.ts';
import { requireRight } from '../../middleware/require-right.ts';
import { defineRoute } from '../../route.ts';
import type { RouteDeps } from '../deps.ts';

/** A spreadsheet of 10,000 rows with long cells, base64 in JSON. */
const IMPORT_BODY_LIMIT_BYTES = 12 * 1024 * 1024;

/** Each row must be a valid bulk provisioning item: the same schema, its problems by column. */
const checkRow: RowCheck = (item) => {
  const parsed = erpMetadata.safeParse(item);
  if (parsed.success) return [];
  return parsed.error.issues.map((issue) => {
    const column = String(issue.path[0] ?? '');
    return {
      column,
      message: item[column] === undefined ? 'Required: the cell is empty' : issue.message,
    };
  });
};

const job = z.object({
  id: z.string(),
  state: z
    .enum(['checking', 'writing', 'done', 'refused', 'failed'])
    .describe('refused: some rows are not valid (see errors), nothing was written.'),
  total: z.number().int().describe('Rows under the header (blank rows not counted).'),
  processed: z.number().int().describe('Rows checked (checking) or written (writing).'),
  written: z.number().int(),
  alreadyImported: z.boolean().describe('The same file was imported before: nothing was written this time.'),
  errors: z.array(z.object({ row: z.number().int(), column: z.string(), message: z.string() })),
});

const shown = (found: ImportJob) => ({
  id: found.id,
  state: found.state,
  total: found.total,
  processed: found.processed,
  written: found.written,
  alreadyImported: found.alreadyImported,
  errors: found.errors.slice(0, 1000),
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
        `Columns (header row): ${IMPORT_COLUMNS.join(', ')}. Answers 202 with a job to poll. Every row is ` +
        'checked as a bulk provisioning item; any bad row → the job ends `refused` listing every bad row ' +
        '(row number, column, rule) and nothing is written; else all rows are written in one transaction. The ' +
        `same file again answers the same job, or \`alreadyImported\` once written. At most ${BULK_PROVISION_MAX_ITEMS} ` +
        `rows. ${ACCESS}`,
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
      },
      handler: async (ctx: AppContext, { body }) => {
        await requireRight(ctx, 'managePassports', 'import passports');
        const file = Buffer.from(body.content, 'base64');
        const started = startImport(
          deps.orm.em.fork(),
          ctx.state.scope!,
          file,
          checkRow,
          BULK_PROVISION_MAX_ITEMS,
        );
        ctx.status = 202;
        ctx.body = { success: true, job: shown(started) };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/v1/erp/provision/imports/:id',
      operationId: 'getProvisionImport',
      summary: 'A spreadsheet import’s progress, bad rows and outcome.',
      description:
        'Jobs are kept an hour after they end, by the API process that runs them. Re-upload the file to learn ' +
        `whether it was imported. ${ACCESS.replace('owners and developers', 'every role')}`,
      tags: ['erp'],
      auth: 'apiKeyOrUser',
      params: z.object({ id: z.string().min(1).max(64) }),
      responses: {
        404: { description: 'import_not_found.' },
        200: { description: 'The job.', schema: z.object({ success: z.literal(true), job }) },
      },
      handler: async (ctx: AppContext, { params }) => {
        await requireRight(ctx, 'read', 'see imports');
        const found = importJob(ctx.state.scope!, params.id);
        if (!found)
          throw new DomainError('not_found', 'import_not_found', 'No such import (it may have expired).');
        ctx.body = { success: true, job: shown(found) };
      },
    }),
  ];
}
