import { z } from 'zod';
import { requireWorkflows } from '../../../src/adapters/temporal/start.ts';
import { anchorEvent } from '../../../src/lifecycle/supply-chain/anchor-event.ts';
import { logSupplyChainEvent } from '../../../src/lifecycle/supply-chain/log-event.ts';
import { eventView } from '../../../src/passport/timeline/event-view.ts';
import type { AppContext } from '../../context.ts';
import { IDEMPOTENCY_DOC, respondIdempotently } from '../../idempotency.ts';
import { defineRoute } from '../../route.ts';
import type { RouteDeps } from '../deps.ts';
import { logEventBody, supplyChainEventSchema } from './schemas.ts';

export function logEventRoutes(deps: RouteDeps) {
  return [
    defineRoute({
      method: 'post',
      path: '/v1/iaas/log-event',
      operationId: 'logSupplyChainEvent',
      summary: 'Log a supply-chain event of a passport; it is anchored on chain in the background.',
      description:
        'Stores the event at once (201 with its integer eventId) and starts workflow anchor-event:{env}:{eventId}, ' +
        'which logs its dataHash on the contract and then sends the webhook of the action (see docs/supply-chain.md). Follow ' +
        'the anchor on GET /v1/iaas/events/{id}. Unknown token → 404 token_not_found; recycled → 409 token_recycled.' +
        IDEMPOTENCY_DOC,
      tags: ['iaas'],
      auth: 'apiKey',
      idempotent: true,
      body: logEventBody,
      responses: {
        404: {
          description: 'token_not_found: no passport with this tokenId in this company and environment.',
        },
        409: { description: 'token_recycled: a recycled passport takes no more events.' },
        201: {
          description: 'Stored; anchoring runs.',
          schema: z.object({ success: z.literal(true), eventId: z.number().int(), message: z.string() }),
        },
      },
      handler: async (ctx: AppContext, { body }) => {
        const logDeps = {
          em: ctx.state.em!,
          workflows: requireWorkflows(deps.workflows),
          publicBaseUrl: deps.config.publicBaseUrl,
          log: ctx.state.log,
        };
        await respondIdempotently(ctx, async () => {
          const { event, anchorStarted } = await logSupplyChainEvent(logDeps, {
            scope: ctx.state.scope!,
            request: body,
          });
          const logged = `${event.action} logged for token ${event.tokenId}`;
          const message = anchorStarted
            ? `${logged}; anchoring on chain.`
            : `${logged}; anchoring could not start yet: retry with POST /v1/iaas/events/${event.id}/anchor.`;
          return { status: 201, body: { success: true, eventId: event.id, message } };
        });
        const { eventId } = ctx.body as { eventId: number };
        ctx.set('Location', `/v1/iaas/events/${eventId}`);
      },
    }),
    defineRoute({
      method: 'post',
      path: '/v1/iaas/events/:id/anchor',
      operationId: 'anchorSupplyChainEvent',
      summary: 'Start anchoring an event again (after its anchor failed or could not start).',
      description:
        'Idempotent: an anchored event answers 200 as it is; otherwise 202 and workflow ' +
        'anchor-event:{env}:{id} runs (a running one is joined).',
      tags: ['iaas'],
      auth: 'apiKey',
      params: z.object({ id: z.coerce.number().int().min(1).max(2_147_483_647) }),
      responses: {
        200: {
          description: 'Already anchored.',
          schema: z.object({ success: z.literal(true), event: supplyChainEventSchema }),
        },
        202: {
          description: 'Anchoring runs.',
          schema: z.object({ success: z.literal(true), workflowId: z.string() }),
        },
      },
      handler: async (ctx: AppContext, { params }) => {
        const anchor = await anchorEvent(
          { em: ctx.state.em!, workflows: deps.workflows },
          { scope: ctx.state.scope!, eventId: params.id },
        );
        if (anchor.anchored) {
          ctx.body = { success: true, event: eventView(anchor.event) };
          return;
        }
        ctx.status = 202;
        ctx.set('Location', `/v1/iaas/events/${anchor.eventId}`);
        ctx.body = { success: true, workflowId: anchor.workflowId };
      },
    }),
  ];
}
