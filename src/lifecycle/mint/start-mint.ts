import {
  requireWorkflows,
  resultWithin,
  startOrJoin,
  type WorkflowGateway,
} from '../../adapters/temporal/start.ts';
import { chipEnrolledElsewhere } from '../../chips/enroll.ts';
import { DomainError } from '../../platform/errors.ts';
import { MINT_WORKFLOW, type MintInput, type MintResult, type MintWorkflow } from '../../processes/mint.ts';
import { CHIP_ALREADY_REGISTERED, mintFailureToDomainError } from './mint-failures.ts';

/** The mint's result if it finished within the wait, else its workflow (still running) to follow. */
export type MintOutcome =
  | { done: true; chipUid: string; result: MintResult }
  | { done: false; chipUid: string; workflowId: string };

/**
 * Starts mint:{env}:{chipUid} (`input.reference`), or joins it if the caller's company started it: one
 * workflow per chip, and another company's mint of it (both saw it new) is not ours to join. Waits up to
 * `waitMs` for the result; a failed mint is its domain error. A mint that completed before is refused
 * (`completed: 'refuse'`, chip_already_registered) or answered with its result (`'answer'`).
 */
export async function startMint(
  workflows: WorkflowGateway | undefined,
  input: MintInput,
  options: { summary: string; waitMs: number; completed: 'refuse' | 'answer' },
): Promise<MintOutcome> {
  const { chipUid, scope } = input;
  const { handle, alreadyCompleted } = await startOrJoin<MintWorkflow>(
    requireWorkflows(workflows),
    MINT_WORKFLOW,
    {
      workflowId: input.reference,
      environment: scope.environment,
      args: [input],
      summary: options.summary,
      searchAttributes: {
        environment: scope.environment,
        company: scope.companyId,
        chipUid,
        gtin: input.product.gtin ?? undefined,
      },
      ownRunsOnly: () => chipEnrolledElsewhere(chipUid),
    },
  );
  if (alreadyCompleted && options.completed === 'refuse') {
    throw new DomainError('conflict', 'chip_already_registered', CHIP_ALREADY_REGISTERED);
  }
  try {
    const outcome = await resultWithin(handle, options.waitMs);
    if (outcome.done) return { done: true, chipUid, result: outcome.value };
  } catch (error) {
    throw mintFailureToDomainError(error) ?? error;
  }
  return { done: false, chipUid, workflowId: input.reference };
}
