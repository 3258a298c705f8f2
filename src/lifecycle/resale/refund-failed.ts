import type { EntityManager } from '@mikro-orm/postgresql';
import type { Logger } from '../../platform/logging/logger.ts';
import type { RefusedPayment } from '../../processes/resale.ts';
import type { ResaleTerms } from '../../processes/resale-terms.ts';
import { recordEvent } from '../../webhooks/outbox.ts';
import { formatMinorUnits } from './money.ts';

const EVENT = 'resale.payment_refund_failed';

/** What the flag names of the resale that refused the payment. */
export type RefundedResale = Pick<ResaleTerms, 'resaleId' | 'tokenId' | 'scope'>;

/**
 * A payment the resale refused could not be refunded (Stripe refused the refund, or it kept failing for
 * hours): the buyer's money is with the platform and someone must act. The brand hears of it through the
 * webhook event resale.payment_refund_failed, the platform's operators through an error in the log; the
 * resale's progress keeps it too. A retry of this step records the event once.
 */
export async function flagRefundFailed(
  em: EntityManager,
  logger: Logger,
  terms: RefundedResale,
  refused: RefusedPayment,
): Promise<void> {
  const error = refused.refund.status === 'failed' ? refused.refund.error : 'refund not completed';
  const data = {
    tokenId: terms.tokenId,
    resaleId: terms.resaleId,
    paymentIntentId: refused.paymentIntentId,
    amount: formatMinorUnits(refused.amount, refused.currency),
    currency: refused.currency.toUpperCase(),
    reason: refused.reason,
    error,
  };
  await em.transactional(async (tx) => {
    const [recorded] = await tx.execute<{ id: string }[]>(
      `select id from outbox_events where company_id = ? and environment = ? and event_type = ?
         and data->>'paymentIntentId' = ? limit 1`,
      [terms.scope.companyId, terms.scope.environment, EVENT, refused.paymentIntentId],
    );
    if (!recorded) recordEvent(tx, terms.scope, EVENT, data);
  });
  logger.error(
    { ...data, environment: terms.scope.environment, companyId: terms.scope.companyId },
    'a refused resale payment could not be refunded: refund it by hand',
  );
}
