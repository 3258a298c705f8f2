import type { EntityManager } from '@mikro-orm/postgresql';
import type Stripe from 'stripe';
import { z } from 'zod';
import type { Environment } from '../../platform/config/config.ts';
import { DomainError } from '../../platform/errors.ts';
import type { Logger } from '../../platform/logging/logger.ts';
import type { StripeGateway } from './stripe-gateway.ts';

export interface VerifiedStripeEvent {
  environment: Environment;
  event: Stripe.Event;
}

/**
 * Verifies a Stripe webhook call: `Stripe-Signature` over the exact raw body with the webhook secret of an
 * environment, within the configured tolerance. The endpoint is shared, so the environment is the one whose
 * secret verifies; an event that carries `livemode` must agree with it. Anything else is 400 invalid_signature.
 * The spec's body has neither `livemode` nor `created`: the verified event is completed with the secret's
 * environment and the time of receipt, so every handler reads both (docs/resale.md, "The payment webhook").
 */
export function verifyStripeEvent(
  gateway: StripeGateway,
  rawBody: Buffer,
  signatureHeader: string | undefined,
): VerifiedStripeEvent {
  if (!signatureHeader) throw invalidSignature('The Stripe-Signature header is missing.');
  for (const environment of ['live', 'test'] as const) {
    if (!gateway.isConfigured(environment)) continue;
    const { stripe, settings } = gateway.forEnvironment(environment);
    if (!settings.webhookSecret) continue;
    let event: Stripe.Event;
    try {
      event = stripe.webhooks.constructEvent(
        rawBody,
        signatureHeader,
        settings.webhookSecret,
        gateway.config.webhookToleranceSeconds,
      );
    } catch {
      continue;
    }
    const envelope = checkEnvelope(event);
    const livemode = environment === 'live';
    if (envelope.livemode !== undefined && envelope.livemode !== livemode) {
      throw invalidSignature(
        `A ${envelope.livemode ? 'live' : 'test'} event was signed with the ${environment} secret.`,
      );
    }
    event.livemode = livemode;
    event.created = envelope.created ?? Math.floor(Date.now() / 1000);
    return { environment, event };
  }
  throw invalidSignature(
    'No configured webhook secret verifies the Stripe-Signature of this body (or it is too old).',
  );
}

/** Stripe keeps its object ids within 255 characters (its API upgrade policy); anything longer is not Stripe's. */
const STRIPE_ID = z.string().min(1).max(255);

/**
 * What we read of every event; other fields pass through untouched. The spec's body is `id`, `type` and
 * `data.object` only; Stripe adds `created` and `livemode`, which are checked when present.
 */
const eventEnvelope = z.looseObject({
  id: STRIPE_ID,
  object: z.literal('event').optional(),
  type: z.string().min(1).max(255),
  created: z.number().int().nonnegative().optional(),
  livemode: z.boolean().optional(),
  data: z.looseObject({ object: z.looseObject({}) }),
});

/**
 * A body whose signature verified is Stripe's, or made with our own secret; still, it is checked like any
 * input before it is recorded or acted on: an event without `data.object`, with a `created` that is not a
 * Unix time or with an id longer than Stripe's ids is 400 `malformed_event`, never a 500.
 */
function checkEnvelope(event: Stripe.Event): z.infer<typeof eventEnvelope> {
  const parsed = eventEnvelope.safeParse(event);
  if (!parsed.success) throw malformedEvent(parsed.error);
  return parsed.data;
}

/** 400 `malformed_event`, naming the fields at fault (never echoing their values). */
export function malformedEvent(error: z.ZodError, under: string[] = []): DomainError {
  const fields = [
    ...new Set(error.issues.map((issue) => [...under, ...issue.path.map(String)].join('.') || '(event)')),
  ];
  return new DomainError(
    'invalid',
    'malformed_event',
    `The event is not a well-formed Stripe event (${fields.slice(0, 5).join(', ')}).`,
  );
}

function invalidSignature(message: string): DomainError {
  return new DomainError('invalid', 'invalid_signature', message);
}

/**
 * Records the event once: true the first time its id arrives, false for Stripe's retries and duplicates.
 * Call it inside the transaction that applies the event, so a failed application leaves no record and the
 * retry applies it.
 */
export async function recordStripeEventOnce(
  em: EntityManager,
  verified: VerifiedStripeEvent,
): Promise<boolean> {
  const rows = await em.execute<{ id: string }[]>(
    `insert into stripe_events (id, environment, type, created_at) values (?, ?, ?, to_timestamp(?))
     on conflict (id) do nothing returning id`,
    [verified.event.id, verified.environment, verified.event.type, verified.event.created],
  );
  return rows.length === 1;
}

/**
 * What an event of one type does to our state; it runs inside the event's transaction. It answers 'ignored'
 * when the event concerns nothing of ours (a payment of no open resale, say).
 */
export type StripeEventHandler = (input: {
  em: EntityManager;
  environment: Environment;
  event: Stripe.Event;
  log: Logger;
  // biome-ignore lint/suspicious/noConfusingVoidType: handlers that never ignore return nothing
}) => Promise<void | 'ignored'>;

export type StripeEventHandlers = Partial<Record<Stripe.Event.Type, StripeEventHandler>>;

export type StripeEventOutcome = 'applied' | 'duplicate' | 'ignored';

/**
 * Applies a verified event exactly once: its record and its effect commit together (a failing effect rolls
 * the record back, so Stripe's retry applies it again); a repeated id changes nothing; types we do not
 * handle are recorded and ignored.
 */
export async function applyStripeEvent(
  em: EntityManager,
  verified: VerifiedStripeEvent,
  handlers: StripeEventHandlers,
  log: Logger,
): Promise<StripeEventOutcome> {
  return em.transactional(async (tx) => {
    if (!(await recordStripeEventOnce(tx, verified))) return 'duplicate';
    const handler = handlers[verified.event.type];
    if (!handler) return 'ignored';
    const outcome = await handler({ em: tx, environment: verified.environment, event: verified.event, log });
    return outcome === 'ignored' ? 'ignored' : 'applied';
  });
}
