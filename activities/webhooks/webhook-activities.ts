import { ApplicationFailure } from '@temporalio/activity';
import { scopedEntityManager } from '../../src/db/tenant-scope.ts';
import { DomainError } from '../../src/errors.ts';
import {
  deadLetterRow,
  loadAttemptContext,
  openDeliveryRow,
  recordAttempt,
} from '../../src/webhooks/delivery-records.ts';
import type {
  AttemptInput,
  AttemptOutcome,
  DeliveryRef,
  OpenedDelivery,
  WebhookDeliveryInput,
} from '../../src/webhooks/delivery-types.ts';
import { activeSigningSecrets } from '../../src/webhooks/endpoint-secrets.ts';
import { postWebhook } from '../../src/webhooks/http-post.ts';
import {
  MAX_RESPONSE_SNIPPET_BYTES,
  MAX_WEBHOOK_PAYLOAD_BYTES,
  WEBHOOK_ATTEMPT_TIMEOUT_MS,
} from '../../src/webhooks/limits.ts';
import { deliveryHeaders, envelopeBody } from '../../src/webhooks/signing.ts';
import { pinnedLookup, urlPolicyFor, vetWebhookUrl } from '../../src/webhooks/url-safety.ts';
import type { EnvironmentDeps } from '../deps.ts';

/** Activities of the webhook delivery workflow. */
export function webhookActivities(deps: EnvironmentDeps) {
  const policy = deps.webhookUrlPolicy ?? urlPolicyFor(deps.environment, true);
  const scoped = (ref: DeliveryRef) => {
    if (ref.environment !== deps.environment) {
      throw ApplicationFailure.nonRetryable(
        `delivery for ${ref.environment} reached the ${deps.environment} worker`,
      );
    }
    return scopedEntityManager(deps.orm.em, { companyId: ref.companyId, environment: ref.environment });
  };

  return {
    /** Finds the delivery row (a replay puts it back to pending) and the number of attempts made before. */
    async openWebhookDelivery(input: WebhookDeliveryInput): Promise<OpenedDelivery> {
      const row = await openDeliveryRow(scoped(input.delivery), input.delivery, input.mode);
      return {
        deliveryId: row.deliveryId,
        attemptsBefore: row.attemptsBefore,
        ...(input.mode === 'dispatch' && row.status !== 'pending' ? { closedAs: row.status } : {}),
      };
    },

    /**
     * One attempt: re-reads the endpoint (deleted or disabled: stop without sending), signs the envelope
     * with the endpoint's active secrets, POSTs it once and records the attempt and the delivery's state.
     * HTTP failures are outcomes, not activity failures.
     */
    async attemptWebhookDelivery(input: AttemptInput): Promise<AttemptOutcome> {
      const { delivery, deliveryId, attempt } = input;
      const em = scoped(delivery);
      const { endpoint, event } = await loadAttemptContext(em, delivery);
      if (!endpoint || endpoint.deletedAt || !endpoint.enabled) {
        const error = !endpoint || endpoint.deletedAt ? 'endpoint deleted' : 'endpoint disabled';
        await recordAttempt(em, delivery, deliveryId, null, {
          status: 'stopped',
          attempt: null,
          statusCode: null,
          error,
          nextAttemptInMs: null,
        });
        return { result: 'stopped', attempted: false, statusCode: null, error, durationMs: 0 };
      }
      const body = envelopeBody({
        eventId: event.id,
        eventType: event.eventType,
        occurredAt: event.occurredAt,
        data: event.data,
      });
      if (Buffer.byteLength(body) > MAX_WEBHOOK_PAYLOAD_BYTES) {
        const error = `payload of ${Buffer.byteLength(body)} bytes exceeds ${MAX_WEBHOOK_PAYLOAD_BYTES}`;
        await recordAttempt(em, delivery, deliveryId, null, {
          status: 'pending',
          attempt: null,
          statusCode: null,
          error,
          nextAttemptInMs: null,
        });
        return { result: 'undeliverable', attempted: false, statusCode: null, error, durationMs: 0 };
      }

      const startedAt = new Date();
      let response: Awaited<ReturnType<typeof postWebhook>>;
      try {
        const { url, addresses } = await vetWebhookUrl(endpoint.url, policy, deps.webhookResolver);
        response = await postWebhook({
          url,
          body,
          headers: deliveryHeaders({
            eventId: event.id,
            body,
            secrets: activeSigningSecrets(deps.secretBox, endpoint, startedAt),
            timestampSeconds: Math.floor(startedAt.getTime() / 1000),
          }),
          lookup: pinnedLookup(addresses[0]!),
          timeoutMs: WEBHOOK_ATTEMPT_TIMEOUT_MS,
          maxSnippetBytes: MAX_RESPONSE_SNIPPET_BYTES,
        });
      } catch (error) {
        if (!(error instanceof DomainError)) throw error;
        // The URL no longer passes the safety check (e.g. DNS now answers a private address): nothing sent.
        response = { statusCode: null, error: error.message, snippet: null, durationMs: 0 };
      }

      const { statusCode } = response;
      const succeeded = statusCode !== null && statusCode >= 200 && statusCode < 300;
      const gone = statusCode === 410;
      const error = succeeded ? null : (response.error ?? `receiver answered ${statusCode}`);
      await recordAttempt(
        em,
        delivery,
        deliveryId,
        {
          attempt,
          startedAt,
          durationMs: response.durationMs,
          statusCode,
          error: response.error,
          responseSnippet: response.snippet,
        },
        {
          status: succeeded ? 'succeeded' : gone ? 'stopped' : 'pending',
          attempt,
          statusCode,
          error,
          nextAttemptInMs: succeeded || gone ? null : input.nextAttemptInMs,
        },
        gone ? { reason: `Receiver answered 410 Gone on ${startedAt.toISOString()}` } : undefined,
      );
      const result = succeeded ? 'succeeded' : gone ? 'stopped' : 'failed';
      return { result, attempted: true, statusCode, error, durationMs: response.durationMs };
    },

    /** After the last failed attempt: the dead-letter queue. */
    async deadLetterWebhookDelivery(input: { delivery: DeliveryRef; deliveryId: string }): Promise<void> {
      await deadLetterRow(scoped(input.delivery), input.delivery, input.deliveryId);
    },
  };
}
