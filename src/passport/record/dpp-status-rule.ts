import { DomainError } from '../../platform/errors.ts';
import type { DppStatus } from './passport-header.ts';

/**
 * The EN 18222 status changes a passport's company may ask for, and the rule deciding them. Pure and
 * independent of where a passport is stored, so item, model and batch passports share it (docs/en18222.md,
 * "Status changes"):
 * - `suspend`: active → suspended (reversible; public reads say suspended, writes are refused);
 * - `reactivate`: suspended → active, only a suspension of ours (a revoked passport's credential stays revoked);
 * - `archive`: active or suspended → archived, final: readable for the retention period, never written again;
 * - `end_of_life`: the same as archive, recording that the product no longer exists (for a chip-bound item the
 *   recycling flow is the end of life with a deposit; this is for a product that leaves without one).
 */
export const STATUS_ACTIONS = ['suspend', 'reactivate', 'archive', 'end_of_life'] as const;
export type StatusAction = (typeof STATUS_ACTIONS)[number];

/** What the rule needs to know of a passport: its EN 18223 status and whether a suspension is a revocation. */
export interface StatusFacts {
  dppStatus: DppStatus;
  /** The passport's credential was revoked (suspended for good: reactivate is refused). */
  revoked: boolean;
}

/** The status after `action`, or the refusal (409) when the rule does not allow it. */
export function nextDppStatus(facts: StatusFacts, action: StatusAction): DppStatus | DomainError {
  const { dppStatus } = facts;
  if (dppStatus === 'archived') {
    return new DomainError(
      'conflict',
      'dpp_archived',
      'The passport is archived: archiving is final, its status no longer changes.',
    );
  }
  switch (action) {
    case 'suspend':
      return dppStatus === 'active' ? 'suspended' : refused(dppStatus, action);
    case 'reactivate':
      if (dppStatus !== 'suspended') return refused(dppStatus, action);
      if (facts.revoked) {
        return new DomainError(
          'conflict',
          'passport_revoked',
          'The passport was revoked; a revocation is not undone (mint a new passport for the product).',
        );
      }
      return 'active';
    case 'archive':
    case 'end_of_life':
      return 'archived';
  }
}

function refused(status: DppStatus, action: StatusAction): DomainError {
  return new DomainError(
    'conflict',
    'dpp_status_transition_refused',
    `A ${status} passport cannot ${action.replace('_', ' ')}.`,
  );
}

/** The refusal of a data write to a passport in this status (every write path asks), if refused. */
export function writeRefusal(status: DppStatus): DomainError | undefined {
  if (status === 'archived') {
    return new DomainError(
      'conflict',
      'dpp_archived',
      'The passport is archived; its data no longer changes (it stays readable for its retention period).',
    );
  }
  if (status === 'suspended') {
    return new DomainError(
      'conflict',
      'dpp_suspended',
      'The passport is suspended; reactivate it (POST /v1/dpps/{dppId}/status) before writing its data.',
    );
  }
  return undefined;
}
