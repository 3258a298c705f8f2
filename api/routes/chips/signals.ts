import { z } from 'zod';
import { listSignals, SIGNALS_MAX_PAGE } from '../../../src/chips/signals/list-signals.ts';
import { resolveSignal } from '../../../src/chips/signals/resolve-signal.ts';
import { setSignalSettings, signalSettings } from '../../../src/chips/signals/settings.ts';
import { SEVERITIES, SIGNAL_TYPES } from '../../../src/chips/signals/signal-types.ts';
import type { AppContext, Principal } from '../../context.ts';
import { requireRight } from '../../middleware/require-right.ts';
import { defineRoute } from '../../route.ts';

/** An ISO instant that names a real moment (2026-02-31 does not): PostgreSQL reads it the same way. */
function isInstant(text: string): boolean {
  const date = new Date(text);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 19) === text.slice(0, 19);
}

const signal = z.object({
  id: z.string(),
  type: z.enum(SIGNAL_TYPES),
  severity: z.enum(SEVERITIES),
  chipUid: z.string(),
  tokenId: z.string().nullable(),
  evidence: z.record(z.string(), z.unknown()).describe('What the taps showed; per type in docs/signals.md.'),
  raisedAt: z.string(),
  updatedAt: z.string().describe('The evidence’s last update (an ongoing occurrence keeps updating it).'),
  resolved: z.boolean(),
  resolvedAt: z.string().nullable(),
  resolvedBy: z.string().nullable(),
});

const settings = z.object({
  reopenThreshold: z.number().int().min(2).max(1000),
  counterJumpThreshold: z.number().int().min(1).max(16_777_215),
  burstTaps: z.number().int().min(2).max(100_000),
  burstWindowSeconds: z.number().int().min(10).max(604_800),
  notify: z.array(z.enum(SIGNAL_TYPES)).describe('Signal types that send asset.suspicious_activity.'),
});

function actor(principal: Principal): string {
  if (principal.kind === 'user') return principal.email;
  if (principal.kind === 'apiKey') return `api-key:${principal.apiKeyId}`;
  return `oauth:${principal.clientId}`;
}

const listSignalsRoute = defineRoute({
  method: 'get',
  path: '/v1/dpp/signals',
  operationId: 'listSignals',
  summary: 'Counterfeit signals from your chips’ taps, newest first (overall, or one passport’s).',
  description:
    'Each signal: type, severity, the evidence behind it, when raised and whether resolved. Raised once per ' +
    'occurrence (docs/signals.md); `status` open (default), resolved or all; `tokenId` narrows to one passport. ' +
    '`nextCursor` non-null: pass it as `after` for older ones.',
  tags: ['dpp'],
  auth: 'apiKeyOrUser',
  query: z.object({
    tokenId: z.string().trim().min(1).max(78).optional(),
    status: z.enum(['open', 'resolved', 'all']).default('open'),
    limit: z.coerce.number().int().min(1).max(SIGNALS_MAX_PAGE).default(50),
    after: z
      .string()
      .max(100)
      .regex(
        /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?Z\|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/,
        'after is a nextCursor',
      )
      .refine((cursor) => isInstant(cursor.split('|')[0]!), 'after is a nextCursor')
      .optional(),
  }),
  responses: {
    200: {
      description: 'A page of signals.',
      schema: z.object({
        success: z.literal(true),
        signals: z.array(signal),
        nextCursor: z.string().nullable(),
      }),
    },
  },
  handler: async (ctx: AppContext, { query }) => {
    const page = await listSignals(ctx.state.em!, ctx.state.scope!, query);
    ctx.body = { success: true, ...page };
  },
});

const resolveSignalRoute = defineRoute({
  method: 'post',
  path: '/v1/dpp/signals/:signalId/resolve',
  operationId: 'resolveSignal',
  summary: 'Mark a signal resolved for the company.',
  description:
    'Idempotent: resolving again keeps the first resolution. A resolved occurrence is not raised again (its ' +
    'evidence keeps following later taps). Owners and developers (a viewer → 403 role_forbidden), API keys.',
  tags: ['dpp'],
  auth: 'apiKeyOrUser',
  params: z.object({ signalId: z.uuid({ message: 'Signal ids are UUIDs' }) }),
  responses: {
    404: { description: 'signal_not_found' },
    200: { description: 'Resolved.', schema: z.object({ success: z.literal(true), signal }) },
  },
  handler: async (ctx: AppContext, { params }) => {
    await requireRight(ctx, 'managePassports', 'resolve signals');
    const resolved = await resolveSignal(
      ctx.state.em!,
      ctx.state.scope!,
      params.signalId,
      actor(ctx.state.principal!),
    );
    ctx.body = { success: true, signal: resolved };
  },
});

const settingsAnswer = {
  200: {
    description: 'The thresholds in force (the defaults until changed; `updatedAt` null then).',
    schema: settings.extend({ success: z.literal(true), updatedAt: z.string().nullable() }),
  },
};

const getSettingsRoute = defineRoute({
  method: 'get',
  path: '/v1/dpp/signal-settings',
  operationId: 'getSignalSettings',
  summary: 'The company’s signal thresholds and which signals send a webhook event.',
  description: 'One set per company, for both environments. Defaults and rules: docs/signals.md.',
  tags: ['dpp'],
  auth: 'apiKeyOrUser',
  responses: settingsAnswer,
  handler: async (ctx: AppContext) => {
    ctx.body = { success: true, ...(await signalSettings(ctx.state.em!, ctx.state.scope!.companyId)) };
  },
});

const putSettingsRoute = defineRoute({
  method: 'put',
  path: '/v1/dpp/signal-settings',
  operationId: 'setSignalSettings',
  summary: 'Change the company’s signal thresholds (fields left out keep their value).',
  description:
    'Applies to the next taps (signals already raised stay). Owners and developers, API keys; a viewer → 403.',
  tags: ['dpp'],
  auth: 'apiKeyOrUser',
  body: settings.partial().strict(),
  responses: settingsAnswer,
  handler: async (ctx: AppContext, { body }) => {
    await requireRight(ctx, 'managePassports', 'change signal settings');
    const saved = await setSignalSettings(ctx.state.em!, ctx.state.scope!.companyId, body);
    ctx.body = { success: true, ...saved };
  },
});

export const signalRoutes = [listSignalsRoute, resolveSignalRoute, getSettingsRoute, putSettingsRoute];
