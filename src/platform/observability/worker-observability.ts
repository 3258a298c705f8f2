import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { Resource } from '@opentelemetry/resources';
import { NoopSpanProcessor } from '@opentelemetry/sdk-trace-base';
import {
  makeWorkflowExporter,
  OpenTelemetryActivityInboundInterceptor,
  OpenTelemetryActivityOutboundInterceptor,
} from '@temporalio/interceptors-opentelemetry';
import type {
  ActivityExecuteInput,
  ActivityInboundCallsInterceptor,
  InjectedSinks,
  Next,
  WorkerOptions,
} from '@temporalio/worker';
import { countMint, countWorkflowFinished, observeActivity } from './metrics.ts';
import type { Tracing } from './tracing.ts';
import type { MetricsSinks, WorkflowOutcome } from './workflow-interceptors.ts';

const require = createRequire(import.meta.url);

const METRICS_INTERCEPTORS = fileURLToPath(new URL('./workflow-interceptors.ts', import.meta.url));
const TRACING_INTERCEPTORS = require.resolve(
  '@temporalio/interceptors-opentelemetry/lib/workflow-interceptors',
);

/**
 * Workflow interceptor modules bundled with the workflow code: ours (how each workflow ends, for
 * dpp_workflows_finished_total and dpp_mints_total) and the SDK's OpenTelemetry one (a span per workflow run
 * and per activity it schedules, the trace context passed on in Temporal headers).
 */
export const workflowInterceptorModules = [METRICS_INTERCEPTORS, TRACING_INTERCEPTORS];

/**
 * The modules a worker bundles: the OpenTelemetry one only when this process exports traces. Each workflow
 * run evaluates its bundle's modules afresh (the SDK isolates module state per run) and that interceptor loads
 * the OpenTelemetry SDK and makes its spans in the sandbox: most of a mint's workflow-thread CPU, for spans
 * that would be dropped (measured with `npm run bench -- mint`).
 */
export function workflowInterceptorModulesFor(tracing: Tracing | undefined): string[] {
  return tracing ? workflowInterceptorModules : [METRICS_INTERCEPTORS];
}

const MINT_WORKFLOW = 'mintPassport';
const MINT_OUTCOME = {
  completed: 'minted',
  refused: 'refused',
  failed: 'failed',
  cancelled: 'cancelled',
} as const;

/** `dpp-test` → `test`: the environment a task queue serves (src/processes/task-queues.ts). */
function environmentOf(taskQueue: string): string {
  const suffix = taskQueue.slice(taskQueue.lastIndexOf('-') + 1);
  return suffix === 'live' || suffix === 'test' ? suffix : 'other';
}

/** Times each activity for dpp_activity_duration_seconds. */
function activityTiming(workflowType: string, activityType: string): ActivityInboundCallsInterceptor {
  return {
    async execute(input: ActivityExecuteInput, next: Next<ActivityInboundCallsInterceptor, 'execute'>) {
      const started = process.hrtime.bigint();
      let failed = true;
      try {
        const result = await next(input);
        failed = false;
        return result;
      } finally {
        observeActivity(workflowType, activityType, failed, Number(process.hrtime.bigint() - started) / 1e9);
      }
    },
  };
}

/**
 * What every worker of ours runs with besides its activities (worker/worker.ts, the test stack): activity
 * interceptors (an OpenTelemetry span per activity, child of the workflow's; its duration), and the sinks the
 * workflow interceptors call (workflow endings; workflow spans, exported by this process's tracing when
 * installed, else dropped). The bundle must include `workflowInterceptorModules`.
 */
export function workerObservability(
  tracing: Tracing | undefined,
): Pick<WorkerOptions, 'interceptors' | 'sinks'> {
  const metrics: InjectedSinks<MetricsSinks>['metrics'] = {
    workflowFinished: {
      fn: (info, outcome: WorkflowOutcome) => {
        countWorkflowFinished(info.workflowType, outcome);
        if (info.workflowType === MINT_WORKFLOW)
          countMint(environmentOf(info.taskQueue), MINT_OUTCOME[outcome]);
      },
    },
  };
  return {
    interceptors: {
      activity: [
        (ctx) => ({
          inbound: new OpenTelemetryActivityInboundInterceptor(ctx),
          outbound: new OpenTelemetryActivityOutboundInterceptor(ctx),
        }),
        (ctx) => ({
          inbound: activityTiming(ctx.info.workflowType ?? 'none', ctx.info.activityType),
        }),
      ],
    },
    sinks: {
      metrics,
      exporter: makeWorkflowExporter(
        tracing?.spanProcessor ?? new NoopSpanProcessor(),
        tracing?.resource ?? Resource.default(),
      ),
    },
  };
}
