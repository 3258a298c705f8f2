import { ApplicationFailure } from '@temporalio/activity';
import { payoutAccount } from '../../src/accounts/compliance/connect-accounts.ts';
import { providerRefusal, redactProviderMessage } from '../../src/adapters/payments/provider-errors.ts';
import { payOutSale } from '../../src/lifecycle/resale/payout.ts';
import {
  createResaleCheckout,
  expireResaleCheckout,
  refundResalePayment,
} from '../../src/lifecycle/resale/resale-checkout.ts';
import type { Logger } from '../../src/platform/logging/logger.ts';
import type { ResaleTerms } from '../../src/processes/resale-terms.ts';
import type { EnvironmentDeps } from '../deps.ts';

/** The resale's Stripe calls. Each one carries a Stripe idempotency key, so a retry never repeats its effect. */
export function resalePaymentActivities(deps: EnvironmentDeps) {
  const stripe = () => deps.payments.forEnvironment(deps.environment).stripe;
  const log = () => ({
    logger: deps.logger,
    secrets: [deps.payments.config.stripe[deps.environment]?.secretKey],
  });
  return {
    /** The buyer's Checkout Session; it expires with the payment window (`expiresAt`, Unix seconds). */
    async createResaleCheckout(input: { terms: ResaleTerms; expiresAt: number }) {
      return refusalsAreFinal(() => createResaleCheckout(stripe(), input.terms, input.expiresAt), log());
    },

    async expireResaleCheckout(input: { sessionId: string }) {
      await refusalsAreFinal(() => expireResaleCheckout(stripe(), input.sessionId), log());
    },

    async refundResalePayment(input: { terms: ResaleTerms; paymentIntentId: string }) {
      return refusalsAreFinal(
        () => refundResalePayment(stripe(), input.terms.resaleId, input.paymentIntentId),
        log(),
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
      const outcome = await refusalsAreFinal(
        () =>
          payOutSale(stripe(), {
            resaleId: terms.resaleId,
            paymentIntentId: input.paymentIntentId,
            chargeId: input.chargeId,
            price: terms.price,
            sellerIsBrand,
            parties: { seller, brand },
          }),
        log(),
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
 * not accept) are not retried: a retry would be refused the same way. The failure carries our own message and
 * what identifies the refusal (the SDK's error class, Stripe's error code, the request id), never Stripe's
 * message: it may quote our request back, Authorization header included. The operator's log gets the message
 * with anything key-like removed.
 */
export async function refusalsAreFinal<T>(
  call: () => Promise<T>,
  log?: { logger: Logger; secrets: (string | undefined)[] },
): Promise<T> {
  try {
    return await call();
  } catch (error) {
    const refusal = providerRefusal(error);
    if (refusal) {
      log?.logger.warn(
        { ...refusal, providerMessage: redactProviderMessage((error as Error).message, log.secrets) },
        'Stripe refused a request',
      );
      throw ApplicationFailure.create({
        message: `Stripe refused the request (${refusal.providerType}${refusal.code ? `, ${refusal.code}` : ''}${
          refusal.statusCode ? `, HTTP ${refusal.statusCode}` : ''
        }${refusal.requestId ? `, ${refusal.requestId}` : ''}).`,
        type: 'StripeRejected',
        nonRetryable: true,
        details: [refusal],
      });
    }
    throw error;
  }
}
