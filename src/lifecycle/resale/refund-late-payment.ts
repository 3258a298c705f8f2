import type { EntityManager } from '@mikro-orm/postgresql';
import { providerRefusal } from '../../adapters/payments/provider-errors.ts';
import type { StripeGateway } from '../../adapters/payments/stripe-gateway.ts';
import type { Environment } from '../../platform/config/config.ts';
import { DomainError } from '../../platform/errors.ts';
import type { Logger } from '../../platform/logging/logger.ts';
import type { PayResaleInput } from './pay-resale.ts';
import { flagRefundFailed, type RefundedResale } from './refund-failed.ts';
import { refundResalePayment } from './resale-checkout.ts';

/**
 * A captured payment naming a resale of ours that is no longer open (its event arrived after the release
 * expired, say: Stripe delivers late while our endpoint was down) completes no sale: it is refunded here, in
 * the event's transaction. The idempotency key is the payment intent's, as in the workflow, so a payment both
 * refused there and refunded here is refunded once. A payment that paid any resale is never refunded here.
 * Stripe failing to answer is 503 (Stripe delivers the event again: its retries are this step's retries);
 * Stripe refusing the refund is flagged (resale.payment_refund_failed, an error log line) and the event applied.
 * Undefined when the payment names no resale of ours that ended.
 */
export async function refundLatePayment(
  deps: { em: EntityManager; payments: StripeGateway; log: Logger },
  input: PayResaleInput,
): Promise<'applied' | undefined> {
  const resale = await endedResaleNamed(deps.em, input.environment, input.names);
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

function endedResaleNamed(em: EntityManager, environment: Environment, names: PayResaleInput['names']) {
  if (!/^[1-9]\d{0,77}$/.test(names.tokenId)) return undefined;
  return em
    .execute<{ id: string; token_id: string; company_id: string; status: string }[]>(
      `select id, token_id, company_id, status from resales
       where environment = ? and token_id = ? and status in ('EXPIRED', 'CLAIM_EXPIRED', 'FAILED', 'CLAIMED')
         and (?::text is null or lower(buyer_wallet) = lower(?::text))
         and (?::text is null or id::text = ?::text)
       order by created_at desc limit 1`,
      [
        environment,
        names.tokenId,
        names.buyerWallet ?? null,
        names.buyerWallet ?? null,
        names.resaleId ?? null,
        names.resaleId ?? null,
      ],
    )
    .then(([row]) => row);
}

async function paidAResale(em: EntityManager, environment: Environment, paymentIntentId: string) {
  const rows = await em.execute(
    'select 1 from resales where environment = ? and payment_intent_id = ? limit 1',
    [environment, paymentIntentId],
  );
  return rows.length > 0;
}
