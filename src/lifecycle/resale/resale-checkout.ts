import type Stripe from 'stripe';
import type { ResaleTerms } from '../../processes/resale-terms.ts';

/** Stripe's own request idempotency: a retried call with the same key returns the first answer. */
const key = (resaleId: string, what: string) => `dpp-resale-${resaleId}-${what}`;

/**
 * The buyer's Checkout Session: one item at the release price, for the buyer's e-mail, expiring when the
 * payment window ends. The charge lands on the platform account (separate charges and transfers: the payout
 * splits it 94/5/1 afterwards); its payment intent carries the spec's metadata {tokenId, buyerWallet}, which
 * payment_intent.succeeded brings back, and the resale id.
 */
export async function createResaleCheckout(
  stripe: Stripe,
  input: ResaleTerms,
  expiresAt: number,
): Promise<{ sessionId: string; url: string; expiresAt: string }> {
  const metadata = { tokenId: input.tokenId, buyerWallet: input.buyerWallet, resaleId: input.resaleId };
  const session = await stripe.checkout.sessions.create(
    {
      mode: 'payment',
      line_items: [
        {
          quantity: 1,
          price_data: {
            currency: input.price.currency,
            unit_amount: input.price.amount,
            product_data: { name: `Pre-owned product, Digital Product Passport ${input.tokenId}` },
          },
        },
      ],
      customer_email: input.buyerEmail,
      expires_at: expiresAt,
      success_url: `${input.returnUrl}?resale=${input.resaleId}&checkout=success`,
      cancel_url: `${input.returnUrl}?resale=${input.resaleId}&checkout=cancelled`,
      metadata: { ...metadata, environment: input.scope.environment },
      payment_intent_data: { metadata, transfer_group: transferGroup(input.resaleId) },
    },
    { idempotencyKey: key(input.resaleId, 'checkout') },
  );
  if (!session.url) throw new Error(`Checkout Session ${session.id} has no URL`);
  return { sessionId: session.id, url: session.url, expiresAt: new Date(expiresAt * 1000).toISOString() };
}

/** Expires an open session; one already expired or completed is left as it is. */
export async function expireResaleCheckout(stripe: Stripe, sessionId: string): Promise<void> {
  try {
    await stripe.checkout.sessions.expire(sessionId);
  } catch (error) {
    if (!isStateConflict(error)) throw error;
  }
}

/**
 * Refunds a whole payment of a resale: the sale's when its claim window is over, or one the resale refused.
 * The idempotency key is the payment's own, so a retry, or a second request for the same payment from
 * anywhere, returns the first refund instead of refunding twice (the workflow also refunds a payment once).
 */
export async function refundResalePayment(
  stripe: Stripe,
  resaleId: string,
  paymentIntentId: string,
): Promise<{ refundId: string }> {
  try {
    const refund = await stripe.refunds.create(
      { payment_intent: paymentIntentId, reason: 'requested_by_customer', metadata: { resaleId } },
      { idempotencyKey: refundIdempotencyKey(paymentIntentId) },
    );
    return { refundId: refund.id };
  } catch (error) {
    // Stripe keeps idempotency keys for 24 hours; later, a payment refunded before is refused as such.
    if ((error as { code?: unknown }).code !== 'charge_already_refunded') throw error;
    const { data } = await stripe.refunds.list({ payment_intent: paymentIntentId, limit: 1 });
    if (!data[0]) throw error;
    return { refundId: data[0].id };
  }
}

export function refundIdempotencyKey(paymentIntentId: string): string {
  return `dpp-refund-${paymentIntentId}`;
}

export function transferGroup(resaleId: string): string {
  return `resale_${resaleId}`;
}

export { key as resaleIdempotencyKey };

function isStateConflict(error: unknown): boolean {
  const stripeError = error as { type?: string; code?: string; statusCode?: number };
  return stripeError.type === 'StripeInvalidRequestError' && stripeError.statusCode === 400;
}
