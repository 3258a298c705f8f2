import { z } from 'zod';
import {
  createEndpoint,
  deleteEndpoint,
  describeEndpoint,
  getEndpoint,
  listEndpoints,
  rotateEndpointSecret,
  type UrlCheck,
  updateEndpoint,
} from '../../../src/webhooks/endpoints.ts';
import { EVENT_TYPES } from '../../../src/webhooks/event-types.ts';
import { sendTestEvent, TEST_EVENT_TYPE } from '../../../src/webhooks/test-event.ts';
import { urlPolicyFor } from '../../../src/webhooks/url-safety.ts';
import type { AppContext } from '../../context.ts';
import { requireRight } from '../../middleware/require-right.ts';
import { defineRoute } from '../../route.ts';
import type { RouteDeps } from '../deps.ts';
import {
  createEndpointBody,
  endpointIdParams,
  endpointSchema,
  rotateSecretBody,
  updateEndpointBody,
} from './schemas.ts';

const TAGS = ['webhooks'];
const endpointBody = z.object({ success: z.literal(true), endpoint: endpointSchema });
const secretField = z
  .string()
  .describe('whsec_ + 32 random bytes in base64. Shown only in this response: store it now.');

export function webhookEndpointRoutes(deps: RouteDeps) {
  const urlCheck = (ctx: AppContext): UrlCheck => ({
    policy: urlPolicyFor(ctx.state.scope!.environment, deps.config.webhooks.allowPrivateUrlsInTest),
  });
  return [
    defineRoute({
      method: 'post',
      path: '/v1/webhooks/endpoints',
      operationId: 'createWebhookEndpoint',
      summary: 'Subscribe a URL to webhook events of this environment.',
      description:
        'Answers the signing secret once. Live URLs must resolve to public addresses only (422 ' +
        'webhook_url_not_allowed for loopback, private, link-local, CGNAT, multicast or metadata addresses); ' +
        'the test environment accepts local receivers unless WEBHOOK_ALLOW_PRIVATE_URLS_IN_TEST=false.',
      tags: TAGS,
      auth: 'apiKeyOrUser',
      body: createEndpointBody,
      responses: {
        422: {
          description:
            'webhook_url_not_allowed: the URL is not https, or resolves to a private, loopback or link-local address.',
        },
        201: {
          description: 'Created.',
          schema: endpointBody.extend({ secret: secretField }),
        },
      },
      handler: async (ctx: AppContext, { body }) => {
        await requireRight(ctx, 'manageWebhooks', 'change webhooks');
        const { endpoint, secret } = await createEndpoint(
          ctx.state.em!,
          deps.secretBox,
          ctx.state.scope!,
          urlCheck(ctx),
          body,
        );
        ctx.state.log.info({ webhookEndpointId: endpoint.id }, 'webhook endpoint created');
        ctx.status = 201;
        ctx.set('Location', `/v1/webhooks/endpoints/${endpoint.id}`);
        ctx.body = { success: true, endpoint: describeEndpoint(endpoint), secret };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/v1/webhooks/event-types',
      operationId: 'listWebhookEventTypes',
      summary: 'The event types an endpoint may subscribe to (the spec’s nine lifecycle events).',
      description: `The values eventTypes accepts. ${TEST_EVENT_TYPE} is not among them: it is sent only when asked for (POST /v1/webhooks/endpoints/{id}/test).`,
      tags: TAGS,
      auth: 'apiKeyOrUser',
      responses: {
        200: {
          description: 'The event types, in lifecycle order.',
          schema: z.object({ success: z.literal(true), eventTypes: z.array(z.enum(EVENT_TYPES)) }),
        },
      },
      handler: async (ctx: AppContext) => {
        await requireRight(ctx, 'read', 'see the webhooks');
        ctx.set('Cache-Control', 'private, max-age=3600');
        ctx.body = { success: true, eventTypes: [...EVENT_TYPES] };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/v1/webhooks/endpoints',
      operationId: 'listWebhookEndpoints',
      summary: 'The webhook endpoints of this environment, newest first (deleted ones are left out).',
      tags: TAGS,
      auth: 'apiKeyOrUser',
      responses: {
        200: {
          description: 'Endpoints.',
          schema: z.object({ success: z.literal(true), endpoints: z.array(endpointSchema) }),
        },
      },
      handler: async (ctx: AppContext) => {
        await requireRight(ctx, 'read', 'see the webhooks');
        const endpoints = await listEndpoints(ctx.state.em!);
        ctx.body = { success: true, endpoints: endpoints.map((e) => describeEndpoint(e)) };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/v1/webhooks/endpoints/:id',
      operationId: 'getWebhookEndpoint',
      summary: 'One webhook endpoint (never its secret).',
      tags: TAGS,
      auth: 'apiKeyOrUser',
      params: endpointIdParams,
      responses: { 200: { description: 'The endpoint.', schema: endpointBody } },
      handler: async (ctx: AppContext, { params }) => {
        await requireRight(ctx, 'read', 'see the webhooks');
        ctx.body = { success: true, endpoint: describeEndpoint(await getEndpoint(ctx.state.em!, params.id)) };
      },
    }),
    defineRoute({
      method: 'patch',
      path: '/v1/webhooks/endpoints/:id',
      operationId: 'updateWebhookEndpoint',
      summary: 'Change the URL, description, event types or enabled flag of an endpoint.',
      description:
        'Only the fields sent change. Enabling clears disabledReason. Deliveries in flight use the new ' +
        'settings from their next attempt (a disabled endpoint stops them).',
      tags: TAGS,
      auth: 'apiKeyOrUser',
      params: endpointIdParams,
      body: updateEndpointBody,
      responses: {
        422: {
          description:
            'webhook_url_not_allowed: the URL is not https, or resolves to a private, loopback or link-local address.',
        },
        200: { description: 'Updated.', schema: endpointBody },
      },
      handler: async (ctx: AppContext, { params, body }) => {
        await requireRight(ctx, 'manageWebhooks', 'change webhooks');
        const endpoint = await updateEndpoint(ctx.state.em!, urlCheck(ctx), params.id, body);
        ctx.body = { success: true, endpoint: describeEndpoint(endpoint) };
      },
    }),
    defineRoute({
      method: 'delete',
      path: '/v1/webhooks/endpoints/:id',
      operationId: 'deleteWebhookEndpoint',
      summary: 'Delete an endpoint. Deliveries in flight stop at their next attempt.',
      description: 'Deliveries keep their history (GET /v1/webhooks/events/{eventId}/deliveries).',
      tags: TAGS,
      auth: 'apiKeyOrUser',
      params: endpointIdParams,
      responses: {
        200: {
          description: 'Deleted.',
          schema: z.object({ success: z.literal(true), message: z.string(), id: z.string() }),
        },
      },
      handler: async (ctx: AppContext, { params }) => {
        await requireRight(ctx, 'manageWebhooks', 'change webhooks');
        const endpoint = await deleteEndpoint(ctx.state.em!, params.id);
        ctx.state.log.info({ webhookEndpointId: endpoint.id }, 'webhook endpoint deleted');
        ctx.body = { success: true, message: 'Webhook endpoint deleted.', id: endpoint.id };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/v1/webhooks/endpoints/:id/rotate-secret',
      operationId: 'rotateWebhookSecret',
      summary: 'Replace the signing secret; the previous one keeps signing during the overlap.',
      description:
        'From the rotation on, service-signature is signed with the new secret only: install it in your ' +
        'receiver at once. During the overlap webhook-signature carries both, new secret first ' +
        '("v1,<new> v1,<old>"), so a Standard Webhooks receiver may switch at any moment before the overlap ' +
        'ends. Rotating again during an overlap retires the oldest secret at once. The body is optional.',
      tags: TAGS,
      auth: 'apiKeyOrUser',
      params: endpointIdParams,
      body: rotateSecretBody,
      bodyOptional: true,
      responses: {
        200: {
          description: 'Rotated.',
          schema: z.object({
            success: z.literal(true),
            secret: secretField,
            previousSecretExpiresAt: z.iso
              .datetime()
              .nullable()
              .describe('Until when the previous secret still signs; null when retired at once.'),
          }),
        },
      },
      handler: async (ctx: AppContext, { params, body }) => {
        await requireRight(ctx, 'manageWebhooks', 'change webhooks');
        const rotated = await rotateEndpointSecret(
          ctx.state.em!,
          deps.secretBox,
          params.id,
          body.overlapSeconds,
        );
        ctx.state.log.info({ webhookEndpointId: params.id }, 'webhook secret rotated');
        ctx.body = {
          success: true,
          secret: rotated.secret,
          previousSecretExpiresAt: rotated.previousSecretExpiresAt?.toISOString() ?? null,
        };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/v1/webhooks/endpoints/:id/test',
      operationId: 'sendWebhookTestEvent',
      summary: `Send a ${TEST_EVENT_TYPE} event to this endpoint only.`,
      description:
        `${TEST_EVENT_TYPE} is not one of the nine spec events: it is never sent unless asked for here. It is ` +
        'signed, retried and recorded like the others; follow it with GET /v1/webhooks/events/{eventId}/deliveries ' +
        '(the Location header), where its delivery appears once the dispatcher has picked it up.',
      tags: TAGS,
      auth: 'apiKeyOrUser',
      params: endpointIdParams,
      responses: {
        409: { description: 'webhook_endpoint_disabled: enable the endpoint first.' },
        202: {
          description: 'Queued.',
          schema: z.object({
            success: z.literal(true),
            eventId: z.string(),
            eventType: z.literal(TEST_EVENT_TYPE),
          }),
        },
      },
      handler: async (ctx: AppContext, { params }) => {
        await requireRight(ctx, 'manageWebhooks', 'change webhooks');
        const eventId = await sendTestEvent(ctx.state.em!, ctx.state.scope!, params.id);
        ctx.status = 202;
        ctx.set('Location', `/v1/webhooks/events/${eventId}/deliveries`);
        ctx.body = { success: true, eventId, eventType: TEST_EVENT_TYPE };
      },
    }),
  ];
}
