import type { EntityManager } from '@mikro-orm/postgresql';
import { providerRefusal } from '../../adapters/payments/provider-errors.ts';
import type { StripeGateway } from '../../adapters/payments/stripe-gateway.ts';
import type { Environment } from '../../platform/config/config.ts';
import { DomainError } from '../../platform/errors.ts';
import type { Logger } from '../../platform/logging/logger.ts';
import type { PayResaleInput } from './pay-resale.ts';
import { flagRefundFailed, type RefundedResale } from './refund-failed.ts';
import { refundResalePayment } from './resale-checkout.ts';
import { ENDED_RESALE_STATUSES, findResaleForPayment } from './resale-records.ts';

/**
 * A captured payment naming a resale of ours that is no longer open (its event arrived after the release
 * expired, say: Stripe delivers late while our endpoint was down) completes no sale: it is refunded here, in
 * the event's transaction. The idempotency key is the payment intent's, as in the workflow, so a payment both
 * refused there and refunded here is refunded once. A payment that paid any resale is never refunded here.
 * Stripe failing to answer is 503 (Stripe delivers the event again: its retries are this step's retries);
 * Stripe refusing the refund is flagged (resale.payment_refund_failed, an error log line) and the event applied.
 * Undefined when the payment names no resale of ours that ended. The caller checked the names' form.
 */
export async function refundLatePayment(
  deps: { em: EntityManager; payments: StripeGateway; log: Logger },
  input: PayResaleInput,
): Promise<'applied' | undefined> {
  const resale = await findResaleForPayment(deps.em, input.environment, input.names, ENDED_RESALE_STATUSES);
  if (!resale) return undefined;
  const { paymentIntentId, eventId, amount, currency } = input.payment;
  if (await paidAResale(deps.em, input.environment, paymentIntentId)) return undefined;
  const named: RefundedResale = {
    resaleId: resale.id,
    tokenId: resale.token_id,
    scope: { companyId: resale.company_id, environment: input.environment },
  };
  const reason = `the resale ${resale.status === 'CLAIMED' ? 'was sold' : 'ended'} (${resale.status})`;
  const { stripe } = deps.payments.forEnvironment(input.environment);
  try {
    const { refundId } = await refundResalePayment(stripe, resale.id, paymentIntentId);
    deps.log.info({ resaleId: resale.id, paymentIntentId, refundId, reason }, 'late resale payment refunded');
  } catch (error) {
    const refusal = providerRefusal(error);
    if (!refusal) {
      throw new DomainError(
        'unavailable',
        'payments_unavailable',
        'Could not refund a payment of a resale that ended; Stripe will deliver the event again.',
      );
    }
    const code = refusal.code ? `, ${refusal.code}` : '';
    await flagRefundFailed(deps.em, deps.log, named, {
      ...{ eventId, paymentIntentId, amount, currency },
      reason,
      refund: { status: 'failed', error: `Stripe refused the refund (${refusal.providerType}${code}).` },
    });
  }
  return 'applied';
}

async function paidAResale(em: EntityManager, environment: Environment, paymentIntentId: string) {
  const rows = await em.execute(
    'select 1 from resales where environment = ? and payment_intent_id = ? limit 1',
    [environment, paymentIntentId],
  );
  return rows.length > 0;
}
