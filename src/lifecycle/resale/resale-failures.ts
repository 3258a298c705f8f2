import { ApplicationFailure, WorkflowFailedError } from '@temporalio/client';
import {
  isCredentialRefusal,
  type ProviderRefusal,
  stableCode,
} from '../../adapters/payments/provider-errors.ts';
import { DomainError } from '../../platform/errors.ts';

/**
 * Turns a failed resale workflow into the domain error a client should see. A payment provider's refusal is
 * answered in our own words with a stable code (and Stripe's documented error code, when it gave one): its
 * message is never passed on, since it can quote our own request, credentials included.
 */
export function resaleFailureToDomainError(error: unknown): DomainError | undefined {
  if (!(error instanceof WorkflowFailedError)) return undefined;
  let cause: unknown = error.cause;
  while (cause && !(cause instanceof ApplicationFailure) && cause instanceof Error) cause = cause.cause;
  if (cause instanceof ApplicationFailure) {
    if (cause.type === 'ChainRejected') {
      return new DomainError('rejected', 'chain_rejected', `The chain refused the resale: ${cause.message}`);
    }
    if (cause.type === 'StripeRejected') {
      const refusal = (cause.details?.[0] ?? {}) as Partial<ProviderRefusal>;
      if (isCredentialRefusal(refusal.providerType)) {
        return new DomainError(
          'unavailable',
          'payments_misconfigured',
          'The payment provider refused the platform’s credentials, so nothing was put up for sale and ' +
            'nothing was sent to the chain. Retry later.',
        );
      }
      const code = stableCode(refusal.code);
      return new DomainError(
        'rejected',
        'payment_provider_rejected',
        'The payment provider refused to open a checkout for this release, so nothing was put up for sale and ' +
          `nothing was sent to the chain${code ? ` (provider code ${code})` : ''}. Check the price and currency.`,
      );
    }
  }
  return new DomainError(
    'unavailable',
    'resale_failed',
    'The resale could not be set up; nothing is for sale. Retry later.',
  );
}
