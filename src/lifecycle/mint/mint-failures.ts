import { ApplicationFailure, WorkflowFailedError } from '@temporalio/client';
import { DomainError } from '../../platform/errors.ts';

export const CHIP_ALREADY_REGISTERED = 'Conflict: Chip already registered.';

/** Turns a failed mint workflow into the domain error a client should see. */
export function mintFailureToDomainError(error: unknown): DomainError | undefined {
  if (!(error instanceof WorkflowFailedError)) return undefined;
  let cause: unknown = error.cause;
  while (cause && !(cause instanceof ApplicationFailure) && cause instanceof Error) cause = cause.cause;
  if (!(cause instanceof ApplicationFailure)) {
    return new DomainError('unavailable', 'mint_failed', `The mint did not complete: ${error.message}`);
  }
  switch (cause.type) {
    case 'SunRejected':
      return new DomainError('rejected', 'sun_rejected', `The SUN signature was refused: ${cause.message}`);
    case 'ChipNotVerified':
      return new DomainError('rejected', 'chip_not_verified', cause.message);
    case 'ConformityRequired':
      return new DomainError('invalid', 'conformity_required', cause.message);
    case 'InvalidMintData':
      return new DomainError('invalid', 'invalid_mint_data', cause.message);
    case 'ChipAlreadyMinted':
      return new DomainError('conflict', 'chip_already_registered', CHIP_ALREADY_REGISTERED);
    case 'ChainRejected':
      return new DomainError('rejected', 'chain_rejected', `The chain refused the mint: ${cause.message}`);
    default:
      return new DomainError('unavailable', 'mint_failed', `The mint did not complete: ${cause.message}`);
  }
}
