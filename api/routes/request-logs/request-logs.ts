import { z } from 'zod';
import {
  CREDENTIAL_KINDS,
  getRequestLog,
  listRequestLogs,
  STATUS_CLASSES,
} from '../../../src/accounts/request-log/queries.ts';
import { dateTimeField } from '../../../src/standards/time/zod-rfc3339.ts';
import type { AppContext } from '../../context.ts';
import { requireRight } from '../../middleware/require-right.ts';
import { defineRoute } from '../../route.ts';

const TAGS = ['request-logs'];

const credential = z
  .union([
    z.object({
      kind: z.literal('apiKey'),
      apiKeyId: z.string(),
      name: z.string().nullable(),
      prefix: z.string().nullable().describe('The key’s public prefix, as the key list shows it.'),
    }),
    z.object({ kind: z.literal('user'), userId: z.number().int(), email: z.string().nullable() }),
    z.object({ kind: z.literal('oauth'), clientId: z.string() }),
  ])
  .nullable();

const summary = z.object({
  id: z.string(),
  createdAt: z.iso.datetime(),
  method: z.string(),
  path: z.string(),
  status: z.number().int(),
  durationMs: z.number(),
  requestId: z.string().describe('The x-request-id the answer carried.'),
  errorCode: z.string().nullable().describe('The problem’s code of an error answer.'),
  credential,
});

const body = z.object({
  text: z.string().nullable().describe('Redacted; compact JSON when the body was JSON.'),
  bytes: z.number().int().describe('Size of the redacted body before any cut.'),
  truncated: z.boolean().describe('The body was longer than REQUEST_LOG_MAX_BODY_BYTES and was cut there.'),
});

const detail = summary.extend({
  query: z.record(z.string(), z.unknown()).nullable(),
  clientAddress: z.string().nullable(),
  userAgent: z.string().nullable(),
  requestHeaders: z.record(z.string(), z.string()),
  requestBody: body,
  responseBody: body,
});

const listQuery = z.object({
  status: z.enum(STATUS_CLASSES).optional().describe('A status class; `failed`: every status from 400.'),
  method: z.enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']).optional(),
  pathPrefix: z.string().trim().min(1).max(200).startsWith('/').optional().describe('e.g. `/v1/dpp`.'),
  apiKeyId: z.uuid().optional().describe('Requests made with this API key.'),
  credential: z.enum(CREDENTIAL_KINDS).optional().describe('Requests made with this kind of credential.'),
  from: dateTimeField().optional().describe('Made at or after (ISO 8601).'),
  to: dateTimeField().optional().describe('Made before (ISO 8601).'),
  limit: z.coerce.number().int().min(1).max(100).default(50),
  after: z.uuid().optional().describe('The nextCursor of the previous page.'),
});

const date = (value: string | undefined) => (value === undefined ? undefined : new Date(value));

/** Developers › Logs: the company's API requests in the caller's environment (docs/console.md). */
export const requestLogRoutes = [
  defineRoute({
    method: 'get',
    path: '/v1/request-logs',
    operationId: 'listRequestLogs',
    summary: 'The company’s API requests in this environment, newest first.',
    description:
      'Every request made with one of the company’s credentials (API keys, OAuth clients, its people’s tokens; ' +
      'the console’s own page loads and reads of this log are not logged), kept REQUEST_LOG_RETENTION_DAYS ' +
      '(30) days and at most REQUEST_LOG_MAX_ROWS (10,000) per environment. Entries appear within about a ' +
      'second of the answer.',
    tags: TAGS,
    auth: 'apiKeyOrUser',
    query: listQuery,
    responses: {
      200: {
        description: 'A page of entries (without their bodies).',
        schema: z.object({
          success: z.literal(true),
          requestLogs: z.array(summary),
          nextCursor: z
            .string()
            .nullable()
            .describe('Pass as `after` for the next page; null on the last page.'),
        }),
      },
    },
    handler: async (ctx: AppContext, { query }) => {
      await requireRight(ctx, 'read', 'see the request log');
      const page = await listRequestLogs(ctx.state.em!, ctx.state.scope!, {
        statusClass: query.status,
        method: query.method,
        pathPrefix: query.pathPrefix,
        apiKeyId: query.apiKeyId,
        credential: query.credential,
        from: date(query.from),
        to: date(query.to),
        limit: query.limit,
        after: query.after,
      });
      ctx.body = { success: true, requestLogs: page.items, nextCursor: page.nextCursor };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/v1/request-logs/:id',
    operationId: 'getRequestLog',
    summary: 'One request of the log with its headers and bodies (secrets redacted).',
    tags: TAGS,
    auth: 'apiKeyOrUser',
    params: z.object({ id: z.uuid({ message: 'Request log ids are UUIDs' }) }),
    responses: {
      404: { description: 'request_log_not_found: not an entry of this company in this environment.' },
      200: {
        description: 'The entry.',
        schema: z.object({ success: z.literal(true), requestLog: detail }),
      },
    },
    handler: async (ctx: AppContext, { params }) => {
      await requireRight(ctx, 'read', 'see the request log');
      ctx.body = {
        success: true,
        requestLog: await getRequestLog(ctx.state.em!, ctx.state.scope!, params.id),
      };
    },
  }),
];
