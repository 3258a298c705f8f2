import { z } from 'zod';
import { startAnchor } from '../../../src/lifecycle/supply-chain/anchor-event.ts';
import { acceptTransfer } from '../../../src/lifecycle/transfer/accept-transfer.ts';
import {
  closeTransfer,
  MAX_OFFER_DAYS,
  offerTransfer,
} from '../../../src/lifecycle/transfer/offer-transfer.ts';
import {
  listTransfers,
  TRANSFER_STATUSES,
  type Transfer,
} from '../../../src/lifecycle/transfer/transfers.ts';
import type { AppContext } from '../../context.ts';
import { requireRight } from '../../middleware/require-right.ts';
import { defineRoute } from '../../route.ts';
import type { RouteDeps } from '../deps.ts';

// Transfer of responsibility for a passport between economic operators (EN 18239; issue 35, docs/exit.md).

const TAGS = ['transfers'];
const PEOPLE =
  'With the company’s API key or OAuth client token, or a person’s user token / console session (offering and ' +
  'deciding: owners and developers; listing: every role). Per environment (x-service-env). docs/exit.md.';

const transfer = z.object({
  id: z.uuid(),
  dppId: z.string(),
  tokenId: z.string(),
  fromCompanyId: z.uuid(),
  toCompanyId: z.uuid(),
  status: z.enum(TRANSFER_STATUSES),
  note: z.string().nullable(),
  offeredAt: z.string(),
  expiresAt: z.string(),
  decidedAt: z.string().nullable(),
});
const answer = z.object({ success: z.literal(true), transfer });

const view = (t: Transfer) => ({
  id: t.id,
  dppId: t.dppId,
  tokenId: t.tokenId,
  fromCompanyId: t.fromCompanyId,
  toCompanyId: t.toCompanyId,
  status: t.status,
  note: t.note,
  offeredAt: t.offeredAt.toISOString(),
  expiresAt: t.expiresAt.toISOString(),
  decidedAt: t.decidedAt?.toISOString() ?? null,
});

const transferId = z.object({ id: z.string().max(64) });
const NOT_OPEN =
  '409 transfer_not_open: accepted, declined, withdrawn or expired already (one of two racing decisions wins).';

function decision(deps: RouteDeps, action: 'decline' | 'withdraw') {
  const who = action === 'decline' ? 'receiving' : 'offering';
  return defineRoute({
    method: 'post',
    path: `/v1/transfers/:id/${action}`,
    operationId: `${action}Transfer`,
    summary: `The ${who} company ${action}s an open offer.`,
    description: `${PEOPLE} The other party is told (webhook passport.transfer_${action === 'decline' ? 'declined' : 'withdrawn'}).`,
    tags: TAGS,
    auth: 'apiKeyOrUser',
    params: transferId,
    responses: {
      200: { description: 'Closed.', schema: answer },
      403: { description: `not_your_decision: only the ${who} company may.` },
      404: { description: 'transfer_not_found: no such transfer of yours.' },
      409: { description: NOT_OPEN },
    },
    handler: async (ctx: AppContext, { params }) => {
      await requireRight(ctx, 'managePassports', `${action} a transfer`);
      const closed = await closeTransfer(deps.orm.em, ctx.state.scope!, params.id, action);
      ctx.set('Cache-Control', 'no-store');
      ctx.body = { success: true, transfer: view(closed) };
    },
  });
}

export function transferRoutes(deps: RouteDeps) {
  return [
    defineRoute({
      method: 'post',
      path: '/v1/dpps/:dppId/transfers',
      operationId: 'offerTransfer',
      summary: 'Offer the responsibility for one of your passports to another economic operator (EN 18239).',
      description:
        `${PEOPLE} The receiving company accepts (POST /v1/transfers/{id}/accept) or declines the offer before ` +
        `it expires (expiresInDays, default 14, at most ${MAX_OFFER_DAYS}); you may withdraw it meanwhile. ` +
        'Until accepted, the passport stays yours. The receiver is told (webhook passport.transfer_offered).',
      tags: TAGS,
      auth: 'apiKeyOrUser',
      params: z.object({ dppId: z.string().max(200) }),
      body: z
        .object({
          toCompanyId: z.uuid({ message: 'toCompanyId is a company id (UUID)' }),
          expiresInDays: z.number().int().min(1).max(MAX_OFFER_DAYS).optional(),
          note: z.string().max(500).optional(),
        })
        .strict(),
      responses: {
        201: { description: 'Offered.', schema: answer },
        400: { description: 'validation_failed, transfer_to_self.' },
        404: { description: 'passport_not_found (not yours), company_not_found.' },
        409: { description: 'transfer_already_offered (one open offer per passport), passport_closed.' },
      },
      handler: async (ctx: AppContext, { params, body }) => {
        await requireRight(ctx, 'managePassports', 'offer a passport to another operator');
        const offered = await offerTransfer(deps.orm.em, ctx.state.scope!, { dppId: params.dppId, ...body });
        ctx.status = 201;
        ctx.set('Location', `/v1/transfers/${offered.id}`);
        ctx.set('Cache-Control', 'no-store');
        ctx.body = { success: true, transfer: view(offered) };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/v1/transfers',
      operationId: 'listTransfers',
      summary: 'The transfers your company offered or received, newest first (500 at most).',
      description:
        `${PEOPLE} Each names both companies; companyId is the caller’s own company id, the one another ` +
        'operator offers passports to.',
      tags: TAGS,
      auth: 'apiKeyOrUser',
      responses: {
        200: {
          description: 'Offered and received.',
          schema: z.object({
            success: z.literal(true),
            companyId: z.uuid(),
            transfers: z.array(transfer.extend({ fromCompanyName: z.string(), toCompanyName: z.string() })),
          }),
        },
      },
      handler: async (ctx: AppContext) => {
        await requireRight(ctx, 'read', 'see the transfers');
        const transfers = await listTransfers(deps.orm.em.fork(), ctx.state.scope!);
        ctx.set('Cache-Control', 'no-store');
        ctx.body = {
          success: true,
          companyId: ctx.state.scope!.companyId,
          transfers: transfers.map((t) => ({
            ...view(t),
            fromCompanyName: t.fromCompanyName,
            toCompanyName: t.toCompanyName,
          })),
        };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/v1/transfers/:id/accept',
      operationId: 'acceptTransfer',
      summary: 'The receiving company accepts an open offer: the passport becomes its responsibility.',
      description:
        `${PEOPLE} At once: the passport, its versions, content, events and chip are yours (every write rule ` +
        'applies to you; the offering company loses write access), its history gets an OPERATOR_TRANSFERRED ' +
        'event (who, when, from, to) and a new version; both companies are told (webhook ' +
        'passport.operator_transferred).',
      tags: TAGS,
      auth: 'apiKeyOrUser',
      params: transferId,
      responses: {
        200: {
          description: 'Accepted.',
          schema: answer.extend({ version: z.number().int(), eventId: z.number().int() }),
        },
        403: { description: 'not_your_decision: only the receiving company accepts.' },
        404: { description: 'transfer_not_found: no such transfer of yours.' },
        409: { description: NOT_OPEN },
      },
      handler: async (ctx: AppContext, { params }) => {
        await requireRight(ctx, 'managePassports', 'accept a transfer');
        const scope = ctx.state.scope!;
        const accepted = await acceptTransfer(deps.orm.em, scope, params.id, deps.config.publicBaseUrl);
        if (deps.workflows) {
          // Anchored on chain like every event; a failure to start is retried by POST /v1/iaas/events/{id}/anchor.
          await startAnchor(deps.workflows, scope, accepted.event).catch((error: unknown) =>
            ctx.state.log.error({ err: error, eventId: accepted.event.id }, 'anchor workflow not started'),
          );
        }
        ctx.set('Cache-Control', 'no-store');
        ctx.body = {
          success: true,
          transfer: view(accepted.transfer),
          version: accepted.version.number,
          eventId: accepted.event.id,
        };
      },
    }),
    decision(deps, 'decline'),
    decision(deps, 'withdraw'),
  ];
}
