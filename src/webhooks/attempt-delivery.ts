import type { EntityManager } from '@mikro-orm/postgresql';
import { DomainError } from '../platform/errors.ts';
import { countWebhookAttempt } from '../platform/observability/metrics.ts';
import type { SecretBox } from '../platform/secret-box.ts';
import type { AttemptInput, AttemptOutcome } from '../processes/webhook-delivery.ts';
import {
  type AttemptContext,
  type AttemptRecord,
  type AttemptResultRow,
  type DeliveryUpdate,
  recordAttempts,
} from './delivery-records.ts';
import { activeSigningSecrets } from './endpoint-secrets.ts';
import { postWebhook, privateAnswerExcerpt } from './http-post.ts';
import {
  MAX_RESPONSE_SNIPPET_BYTES,
  MAX_WEBHOOK_PAYLOAD_BYTES,
  WEBHOOK_ATTEMPT_TIMEOUT_MS,
} from './limits.ts';
import { deliveryHeaders, envelopeBody } from './signing.ts';
import { isForbiddenAddress, type Resolver, type UrlPolicy, vetWebhookUrl } from './url-safety.ts';

/** What sending a delivery needs: the key that opens endpoint secrets and where deliveries may connect. */
export interface WebhookSender {
  secretBox: SecretBox;
  policy: UrlPolicy;
  resolver?: Resolver | undefined;
}

/** An attempt made (or a check that stopped it), with the row that records it. */
export interface AttemptMade {
  outcome: AttemptOutcome;
  record: AttemptResultRow;
}

/**
 * One attempt of one delivery, given the event and endpoint as they are now, without recording it: a deleted
 * or disabled endpoint stops the delivery without sending; otherwise the envelope is signed with the
 * endpoint's active secrets and POSTed once. HTTP failures are outcomes, not errors.
 */
export async function makeAttempt(
  sender: WebhookSender,
  input: AttemptInput,
  context: AttemptContext,
): Promise<AttemptMade> {
  const { delivery, deliveryId, attempt } = input;
  const { endpoint, event } = context;
  const made = (
    outcome: AttemptOutcome,
    record: AttemptRecord | null,
    update: DeliveryUpdate,
  ): AttemptMade => ({
    outcome,
    record: { ref: delivery, deliveryId, attempt: record, update },
  });
  if (!endpoint || endpoint.deletedAt || !endpoint.enabled) {
    const error = !endpoint || endpoint.deletedAt ? 'endpoint deleted' : 'endpoint disabled';
    return made({ result: 'stopped', attempted: false, statusCode: null, error, durationMs: 0 }, null, {
      status: 'stopped',
      attempt: null,
      statusCode: null,
      error,
      nextAttemptInMs: null,
    });
  }
  const body = envelopeBody({
    eventId: event.id,
    eventType: event.eventType,
    occurredAt: event.occurredAt,
    data: event.data,
  });
  if (Buffer.byteLength(body) > MAX_WEBHOOK_PAYLOAD_BYTES) {
    const error = `payload of ${Buffer.byteLength(body)} bytes exceeds ${MAX_WEBHOOK_PAYLOAD_BYTES}`;
    return made({ result: 'undeliverable', attempted: false, statusCode: null, error, durationMs: 0 }, null, {
      status: 'pending',
      attempt: null,
      statusCode: null,
      error,
      nextAttemptInMs: null,
    });
  }

  const startedAt = new Date();
  let response: Awaited<ReturnType<typeof postWebhook>>;
  let sentHeaders: Record<string, string> | null = null;
  try {
    const { url, addresses } = await vetWebhookUrl(endpoint.url, sender.policy, sender.resolver);
    sentHeaders = deliveryHeaders({
      eventId: event.id,
      body,
      secrets: activeSigningSecrets(sender.secretBox, endpoint, startedAt),
      timestampSeconds: Math.floor(startedAt.getTime() / 1000),
    });
    response = await postWebhook({
      url,
      body,
      headers: sentHeaders,
      address: addresses,
      timeoutMs: WEBHOOK_ATTEMPT_TIMEOUT_MS,
      maxSnippetBytes: MAX_RESPONSE_SNIPPET_BYTES,
    });
    // A non-public receiver (test endpoints in development) may be an internal service: the deliveries API
    // shows its status and a short sanitised excerpt, never a readable copy of what it answered.
    if (addresses.some((a) => isForbiddenAddress(a.address)) && response.snippet !== null) {
      response = { ...response, snippet: privateAnswerExcerpt(response.snippet) };
    }
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    // The URL no longer passes the safety check (e.g. DNS now answers a private address): nothing sent.
    response = { statusCode: null, error: error.message, snippet: null, durationMs: 0 };
    sentHeaders = null;
  }

  const { statusCode } = response;
  // Only a 2xx succeeds: any other answer, 410 Gone included, is a failed attempt that the spec retries.
  const succeeded = statusCode !== null && statusCode >= 200 && statusCode < 300;
  const error = succeeded ? null : (response.error ?? `receiver answered ${statusCode}`);
  return made(
    {
      result: succeeded ? 'succeeded' : 'failed',
      attempted: true,
      statusCode,
      error,
      durationMs: response.durationMs,
    },
    {
      attempt,
      startedAt,
      durationMs: response.durationMs,
      statusCode,
      error: response.error,
      responseSnippet: response.snippet,
      requestHeaders: sentHeaders,
    },
    {
      status: succeeded ? 'succeeded' : 'pending',
      attempt,
      statusCode,
      error,
      nextAttemptInMs: succeeded ? null : input.nextAttemptInMs,
    },
  );
}

/**
 * One attempt (makeAttempt) and its record: the attempt and the delivery's state in one statement. Used by
 * the delivery workflow's activity; the dispatcher records its first attempts in batches (first-attempts.ts).
 */
export async function sendAttempt(
  em: EntityManager,
  sender: WebhookSender,
  input: AttemptInput,
  context: AttemptContext,
): Promise<AttemptOutcome> {
  const { outcome, record } = await makeAttempt(sender, input, context);
  await recordAttempts(em, [record]);
  countWebhookAttempt(outcome.result);
  return outcome;
}
