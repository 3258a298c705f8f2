import { ApplicationFailure } from '@temporalio/activity';
import { payoutAccount } from '../../src/compliance/connect-accounts.ts';
import { payOutSale } from '../../src/resale/payout.ts';
import {
  createResaleCheckout,
  expireResaleCheckout,
  refundResalePayment,
} from '../../src/resale/resale-checkout.ts';
import type { ResaleTerms } from '../../src/resale/resale-terms.ts';
import type { EnvironmentDeps } from '../deps.ts';

/** The resale's Stripe calls. Each one carries a Stripe idempotency key, so a retry never repeats its effect. */
export function resalePaymentActivities(deps: EnvironmentDeps) {
  const stripe = () => deps.payments.forEnvironment(deps.environment).stripe;
  return {
    /** The buyer's Checkout Session; it expires with the payment window (`expiresAt`, Unix seconds). */
    async createResaleCheckout(input: { terms: ResaleTerms; expiresAt: number }) {
      return refusalsAreFinal(() => createResaleCheckout(stripe(), input.terms, input.expiresAt));
    },

    async expireResaleCheckout(input: { sessionId: string }) {
      await refusalsAreFinal(() => expireResaleCheckout(stripe(), input.sessionId));
    },

    async refundResalePayment(input: { terms: ResaleTerms; paymentIntentId: string }) {
      return refusalsAreFinal(() =>
        refundResalePayment(stripe(), input.terms.resaleId, input.paymentIntentId),
      );
    },

    /** The 94/5/1 payout; refuses (and is retried) while the seller's or brand's account is not verified. */
    async payOutResale(input: {
      terms: ResaleTerms;
      paymentIntentId: string;
      chargeId?: string | undefined;
    }) {
      const { terms } = input;
      const em = deps.orm.em.fork();
      const environment = terms.scope.environment;
      const brand = await payoutAccount(em, { kind: 'company', id: terms.scope.companyId }, environment);
      const sellerIsBrand =
        terms.seller.kind === 'company' && terms.seller.companyId === terms.scope.companyId;
      const seller = sellerIsBrand
        ? brand
        : await payoutAccount(
            em,
            terms.seller.kind === 'company'
              ? { kind: 'company', id: terms.seller.companyId }
              : { kind: 'user', id: terms.seller.userId },
            environment,
          );
      const outcome = await refusalsAreFinal(() =>
        payOutSale(stripe(), {
          resaleId: terms.resaleId,
          paymentIntentId: input.paymentIntentId,
          chargeId: input.chargeId,
          price: terms.price,
          sellerIsBrand,
          parties: { seller, brand },
        }),
      );
      if (!outcome.paid) {
        throw ApplicationFailure.create({
          type: 'PayoutAccountNotVerified',
          message: `The payout waits for verification of the ${outcome.waitingFor.join(' and the ')}'s payout account (KYB/KYC).`,
        });
      }
      return { transfers: outcome.transfers };
    },
  };
}

/**
 * Stripe's refusals of a request (invalid parameters, a declined card, a missing resource, a key Stripe does
 * not accept) are not retried: a retry would be refused the same way.
 */
export async function refusalsAreFinal<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    const stripeError = error as { type?: string; message?: string; code?: string };
    if (
      stripeError.type === 'StripeInvalidRequestError' ||
      stripeError.type === 'StripeCardError' ||
      stripeError.type === 'StripeAuthenticationError' ||
      stripeError.type === 'StripePermissionError'
    ) {
      throw ApplicationFailure.create({
        message: `Stripe refused the request: ${stripeError.message}`,
        type: 'StripeRejected',
        nonRetryable: true,
        details: [{ code: stripeError.code ?? null }],
      });
    }
    throw error;
  }
}
