import { ActivityFailure, ApplicationFailure, proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities/index.ts';
import type { PaymentSucceeded, RefusedPayment, ResaleInput } from '../src/processes/resale.ts';
import { databaseStep, paymentStep } from './activity-options.ts';

const payments = proxyActivities<Activities>(paymentStep());
const database = proxyActivities<Activities>(databaseStep());

/**
 * Why a captured payment does not complete this sale, or undefined when it does. Only the first payment of
 * the right resale, amount and currency, made while the checkout is open, pays for it.
 */
export function refusalOf(
  input: ResaleInput,
  paid: PaymentSucceeded,
  now: { windowOpen: boolean; paidWith: string | undefined; state: string },
): string | undefined {
  if (paid.resaleId !== input.resaleId) return `the payment is for resale ${paid.resaleId}`;
  if (paid.amount !== input.price.amount || paid.currency !== input.price.currency) {
    return `paid ${paid.amount} ${paid.currency}, the release asks ${input.price.amount} ${input.price.currency}`;
  }
  if (now.paidWith !== undefined) return `the resale is already paid (${now.paidWith})`;
  if (!now.windowOpen) {
    return now.state === 'AUTHORIZING' ? 'the checkout was not open yet' : 'the payment window closed';
  }
  return undefined;
}

/**
 * Refunds the payments a resale refused, each once: the list in the progress is the record of which payment
 * intents were refused, so a redelivered event or another event of the same intent finds its intent there
 * and is not refunded again (and Stripe's idempotency key, the payment intent's, covers the activity's own
 * retries). A refund that fails for good (Stripe refuses it, or it kept failing for all its attempts) stays
 * `failed` in the progress and is flagged: webhook event resale.payment_refund_failed and an error in the log.
 */
export function refusedPaymentRefunds(
  input: ResaleInput,
  list: { read(): RefusedPayment[]; write(refused: RefusedPayment[]): void },
) {
  const settle = (paymentIntentId: string, refund: RefusedPayment['refund']) => {
    list.write(list.read().map((r) => (r.paymentIntentId === paymentIntentId ? { ...r, refund } : r)));
  };
  return {
    known: (paymentIntentId: string) => list.read().some((r) => r.paymentIntentId === paymentIntentId),

    async refund(paid: PaymentSucceeded, reason: string): Promise<void> {
      const { eventId, paymentIntentId, amount, currency } = paid;
      const refused: RefusedPayment = {
        eventId,
        paymentIntentId,
        amount,
        currency,
        reason,
        refund: { status: 'pending' },
      };
      list.write([...list.read(), refused]);
      try {
        const { refundId } = await payments.refundResalePayment({ terms: input, paymentIntentId });
        settle(paymentIntentId, { status: 'refunded', refundId });
      } catch (error) {
        const failed = { status: 'failed' as const, error: failureMessage(error) };
        settle(paymentIntentId, failed);
        try {
          await database.flagRefundFailed({ terms: input, refused: { ...refused, refund: failed } });
        } catch {
          // The flag could not be recorded either: the progress still shows the failed refund.
        }
      }
    },
  };
}

function failureMessage(error: unknown): string {
  const cause = error instanceof ActivityFailure ? error.cause : error;
  if (cause instanceof ApplicationFailure || cause instanceof Error) return cause.message;
  return String(cause);
}
