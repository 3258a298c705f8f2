import { ApplicationFailure, WorkflowFailedError } from '@temporalio/client';
import { DomainError } from '../../../src/errors.ts';

/** Turns a failed resale workflow into the domain error a client should see. */
export function resaleFailureToDomainError(error: unknown): DomainError | undefined {
  if (!(error instanceof WorkflowFailedError)) return undefined;
  let cause: unknown = error.cause;
  while (cause && !(cause instanceof ApplicationFailure) && cause instanceof Error) cause = cause.cause;
  const message = cause instanceof Error ? cause.message : error.message;
  if (cause instanceof ApplicationFailure) {
    if (cause.type === 'ChainRejected') {
      return new DomainError('rejected', 'chain_rejected', `The chain refused the resale: ${message}`);
    }
    if (cause.type === 'StripeRejected') {
      return new DomainError('rejected', 'payment_provider_rejected', message);
    }
  }
  return new DomainError('unavailable', 'resale_failed', `The resale could not be set up: ${message}`);
}
