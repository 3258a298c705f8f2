// Bundled into the workflow code (worker/worker.ts): imports @temporalio/workflow only, issues no commands,
// so committed histories replay the same with it (test/workflows/replay.test.ts).
import {
  ActivityFailure,
  ApplicationFailure,
  ChildWorkflowFailure,
  ContinueAsNew,
  isCancellation,
  proxySinks,
  type Sinks,
  TemporalFailure,
  type WorkflowExecuteInput,
  type WorkflowInboundCallsInterceptor,
  type WorkflowInterceptors,
} from '@temporalio/workflow';

export type WorkflowOutcome = 'completed' | 'refused' | 'failed' | 'cancelled';

/** Implemented by the worker (src/platform/observability/worker-observability.ts): not called during replay. */
export interface MetricsSinks extends Sinks {
  metrics: { workflowFinished(outcome: WorkflowOutcome): void };
}

const { metrics } = proxySinks<MetricsSinks>();

/**
 * How each workflow run ends: completed; refused (the workflow threw an ApplicationFailure of its own, or an
 * activity or child failed with a non-retryable ApplicationFailure: a business refusal such as a tap that does
 * not verify); failed (an activity ran out of attempts or time, a child failed otherwise); cancelled. An error
 * that is not a Temporal failure fails the workflow task (retried), not the workflow, so it is not an ending;
 * nor is continue-as-new.
 */
export function outcomeOf(error: unknown): WorkflowOutcome | undefined {
  if (error instanceof ContinueAsNew) return undefined;
  if (isCancellation(error)) return 'cancelled';
  if (error instanceof ApplicationFailure) return 'refused';
  if (
    (error instanceof ActivityFailure || error instanceof ChildWorkflowFailure) &&
    error.retryState === 'NON_RETRYABLE_FAILURE' &&
    error.cause instanceof ApplicationFailure
  )
    return 'refused';
  if (error instanceof TemporalFailure) return 'failed';
  return undefined;
}

class MetricsInbound implements WorkflowInboundCallsInterceptor {
  async execute(
    input: WorkflowExecuteInput,
    next: (input: WorkflowExecuteInput) => Promise<unknown>,
  ): Promise<unknown> {
    try {
      const result = await next(input);
      metrics.workflowFinished('completed');
      return result;
    } catch (error) {
      const outcome = outcomeOf(error);
      if (outcome) metrics.workflowFinished(outcome);
      throw error;
    }
  }
}

export const interceptors = (): WorkflowInterceptors => ({ inbound: [new MetricsInbound()] });
