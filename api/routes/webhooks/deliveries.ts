import { z } from 'zod';
import { requireWorkflows } from '../../../src/adapters/temporal/start.ts';
import { DELIVERY_STATUSES } from '../../../src/platform/db/entities/webhook-delivery.ts';
import { dateTimeField } from '../../../src/standards/time/zod-rfc3339.ts';
import {
  listDeadLetters,
  listEndpointDeliveries,
  listEventDeliveries,
  withAttempts,
} from '../../../src/webhooks/delivery-queries.ts';
import { MAX_BULK_REPLAY, replayDeadLetter, replayDeadLetters } from '../../../src/webhooks/replay.ts';
import type { AppContext } from '../../context.ts';
import { requireRight } from '../../middleware/require-right.ts';
import { defineRoute } from '../../route.ts';
import type { RouteDeps } from '../deps.ts';
import { deliveryPage, deliverySchema, endpointIdParams, pageQuery } from './schemas.ts';

const TAGS = ['webhooks'];

const window = {
  from: dateTimeField().optional().describe('Dead-lettered at or after (ISO 8601).'),
  to: dateTimeField().optional().describe('Dead-lettered before (ISO 8601).'),
};
const dateOrUndefined = (value: string | undefined) => (value === undefined ? undefined : new Date(value));

const bulkReplayBody = z
  .object({
    endpointId: z.uuid().optional(),
    from: dateTimeField().describe('Dead-lettered at or after (ISO 8601).'),
    to: dateTimeField().describe('Dead-lettered before (ISO 8601).'),
    limit: z.number().int().min(1).max(MAX_BULK_REPLAY).default(MAX_BULK_REPLAY),
  })
  .strict()
  .refine((b) => Date.parse(b.from) < Date.parse(b.to), { message: 'from must be before to', path: ['to'] });

export function webhookDeliveryRoutes(deps: RouteDeps) {
  return [
    defineRoute({
      method: 'get',
      path: '/v1/webhooks/endpoints/:id/deliveries',
      operationId: 'listWebhookEndpointDeliveries',
      summary: 'Deliveries to one endpoint, newest first, each with its attempts.',
      tags: TAGS,
      auth: 'apiKeyOrUser',
      params: endpointIdParams,
      query: z.object({ status: z.enum(DELIVERY_STATUSES).optional(), ...pageQuery }),
      responses: { 200: { description: 'A page of deliveries.', schema: deliveryPage } },
      handler: async (ctx: AppContext, { params, query }) => {
        await requireRight(ctx, 'read', 'see the webhooks');
        const page = await listEndpointDeliveries(ctx.state.em!, params.id, query);
        ctx.body = { success: true, deliveries: page.items, nextCursor: page.nextCursor };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/v1/webhooks/events/:eventId/deliveries',
      operationId: 'listWebhookEventDeliveries',
      summary: 'Every delivery of one event (one per subscribed endpoint), each with its attempts.',
      tags: TAGS,
      auth: 'apiKeyOrUser',
      params: z.object({ eventId: z.uuid({ message: 'Event ids are UUIDs' }) }),
      responses: {
        200: {
          description: 'The event’s deliveries; empty until the dispatcher has picked the event up.',
          schema: z.object({
            success: z.literal(true),
            eventId: z.string(),
            deliveries: z.array(deliverySchema),
          }),
        },
      },
      handler: async (ctx: AppContext, { params }) => {
        await requireRight(ctx, 'read', 'see the webhooks');
        const deliveries = await listEventDeliveries(ctx.state.em!, params.eventId);
        ctx.body = { success: true, eventId: params.eventId, deliveries };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/v1/webhooks/dead-letters',
      operationId: 'listWebhookDeadLetters',
      summary: 'The dead-letter queue: deliveries whose six attempts all failed, oldest first.',
      tags: TAGS,
      auth: 'apiKeyOrUser',
      query: z.object({ endpointId: z.uuid().optional(), ...window, ...pageQuery }),
      responses: { 200: { description: 'A page of dead letters.', schema: deliveryPage } },
      handler: async (ctx: AppContext, { query }) => {
        await requireRight(ctx, 'read', 'see the webhooks');
        const page = await listDeadLetters(ctx.state.em!, {
          endpointId: query.endpointId,
          from: dateOrUndefined(query.from),
          to: dateOrUndefined(query.to),
          limit: query.limit,
          after: query.after,
        });
        ctx.body = { success: true, deliveries: page.items, nextCursor: page.nextCursor };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/v1/webhooks/dead-letters/:deliveryId/replay',
      operationId: 'replayWebhookDeadLetter',
      summary: 'Deliver a dead-lettered event again: a fresh schedule of six attempts.',
      description:
        'The delivery turns pending and its workflow webhook:{eventId}:{endpointId} runs again; attempt numbers ' +
        'continue after the earlier ones. 409 when the delivery is not dead or its endpoint is deleted or disabled.',
      tags: TAGS,
      auth: 'apiKeyOrUser',
      params: z.object({ deliveryId: z.uuid({ message: 'Delivery ids are UUIDs' }) }),
      responses: {
        409: {
          description:
            'webhook_delivery_not_dead (not dead-lettered), webhook_delivery_busy (a replay runs), or its endpoint is deleted or disabled.',
        },
        202: {
          description: 'Replay started.',
          schema: z.object({ success: z.literal(true), delivery: deliverySchema }),
        },
      },
      handler: async (ctx: AppContext, { params }) => {
        await requireRight(ctx, 'manageWebhooks', 'change webhooks');
        const gateway = requireWorkflows(deps.workflows);
        const delivery = await replayDeadLetter(ctx.state.em!, gateway, params.deliveryId);
        ctx.state.log.info({ webhookDeliveryId: delivery.id }, 'webhook dead letter replayed');
        const [view] = await withAttempts(ctx.state.em!, [delivery]);
        ctx.status = 202;
        ctx.body = { success: true, delivery: view };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/v1/webhooks/dead-letters/replay',
      operationId: 'replayWebhookDeadLetters',
      summary: `Replay the dead letters dead-lettered in [from, to), oldest first, at most ${MAX_BULK_REPLAY} per call.`,
      description:
        'Dead letters of deleted or disabled endpoints are left dead and counted as skipped. hasMore says ' +
        'that replayable dead letters remain in the window: call again. An endpointId that is not one of ' +
        'your endpoints → 404 webhook_endpoint_not_found.',
      tags: TAGS,
      auth: 'apiKeyOrUser',
      body: bulkReplayBody,
      responses: {
        404: { description: 'webhook_endpoint_not_found: endpointId is not one of the caller’s endpoints.' },
        409: { description: 'the endpoint is deleted or disabled.' },
        202: {
          description: 'Replays started.',
          schema: z.object({
            success: z.literal(true),
            replayed: z.number().int(),
            skipped: z.number().int(),
            hasMore: z.boolean(),
          }),
        },
      },
      handler: async (ctx: AppContext, { body }) => {
        await requireRight(ctx, 'manageWebhooks', 'change webhooks');
        const gateway = requireWorkflows(deps.workflows);
        const result = await replayDeadLetters(
          ctx.state.em!,
          gateway,
          { endpointId: body.endpointId, from: new Date(body.from), to: new Date(body.to) },
          body.limit,
        );
        ctx.state.log.info({ ...result }, 'webhook dead letters replayed');
        ctx.status = 202;
        ctx.body = { success: true, ...result };
      },
    }),
  ];
}
