// Bundled into the workflow code (worker/worker.ts): imports @temporalio/workflow only, issues no commands,
// so committed histories replay the same with it (test/workflows/replay.test.ts).
import {
  ApplicationFailure,
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

/** Implemented by the worker (src/observability/worker-observability.ts): not called during replay. */
export interface MetricsSinks extends Sinks {
  metrics: { workflowFinished(outcome: WorkflowOutcome): void };
}

const { metrics } = proxySinks<MetricsSinks>();

/**
 * How each workflow run ends: completed; refused (it threw an ApplicationFailure of its own, e.g. a tap that
 * does not verify); failed (an activity or child failed for good, a timeout); cancelled. An error that is not
 * a Temporal failure fails the workflow task (retried), not the workflow, so it is not an ending; nor is
 * continue-as-new.
 */
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
      if (!(error instanceof ContinueAsNew)) {
        if (isCancellation(error)) metrics.workflowFinished('cancelled');
        else if (error instanceof ApplicationFailure) metrics.workflowFinished('refused');
        else if (error instanceof TemporalFailure) metrics.workflowFinished('failed');
      }
      throw error;
    }
  }
}

export const interceptors = (): WorkflowInterceptors => ({ inbound: [new MetricsInbound()] });
