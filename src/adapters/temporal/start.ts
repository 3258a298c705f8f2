import type { WorkflowStartOptions } from '@temporalio/client';
import {
  type Client,
  WorkflowExecutionAlreadyStartedError,
  type WorkflowHandle,
  type WorkflowHandleWithFirstExecutionRunId,
} from '@temporalio/client';
import type { Workflow } from '@temporalio/common';
import type { Environment } from '../../platform/config/config.ts';
import { DomainError } from '../../platform/errors.ts';
import {
  type SearchAttributeValues,
  searchAttributePairs,
  searchAttributes,
} from '../../processes/search-attributes.ts';
import { taskQueueFor } from '../../processes/task-queues.ts';

export interface WorkflowGateway {
  client: Client;
  taskQueuePrefix: string;
}

/** The gateway, or a 503-class error when this process runs without a workflow service. */
export function requireWorkflows(gateway: WorkflowGateway | undefined): WorkflowGateway {
  if (!gateway) {
    throw new DomainError('unavailable', 'workflows_unavailable', 'Workflow service is not configured.');
  }
  return gateway;
}

/**
 * What a start does when a run under the workflow id is going, or has closed:
 * - `join` (a business process done once: mint, recycle, anchor): a running run is joined, a failed one
 *   (failed, terminated, cancelled, timed out) may be started again, a completed one is not repeated
 *   (`alreadyCompleted`);
 * - `exclusive` (one run at a time, again and again over time: a token's resales, a webhook replay): nothing
 *   starts while a run is going (`alreadyRunning`); once it closed, however it ended, a new run may start;
 * - `once` (a webhook's first delivery): a running run is joined; once it closed, however it ended, nothing
 *   starts again (`alreadyCompleted`).
 */
export type StartPolicy = 'join' | 'exclusive' | 'once';

const ID_POLICIES = {
  join: { workflowIdConflictPolicy: 'USE_EXISTING', workflowIdReusePolicy: 'ALLOW_DUPLICATE_FAILED_ONLY' },
  exclusive: { workflowIdConflictPolicy: 'FAIL', workflowIdReusePolicy: 'ALLOW_DUPLICATE' },
  once: { workflowIdConflictPolicy: 'USE_EXISTING', workflowIdReusePolicy: 'REJECT_DUPLICATE' },
} as const;

export interface StartOrJoinOptions<W extends Workflow> {
  workflowId: string;
  environment: Environment;
  args: Parameters<W>;
  summary: string;
  searchAttributes: SearchAttributeValues;
  /** `join` unless told (see StartPolicy). */
  policy?: StartPolicy;
  /** The error for a run of another company than `searchAttributes.company` (see below). */
  ownRunsOnly?: () => Error;
}

export interface StartedOrJoined<W extends Workflow> {
  /** The run started or joined; when nothing started, the latest run under the id. */
  handle: WorkflowHandle<W>;
  /** `join`, `once`: a run under the id closed before, and the policy starts none again. */
  alreadyCompleted: boolean;
  /** `exclusive`: a run under the id is going, so none started. */
  alreadyRunning: boolean;
}

/**
 * Starts a workflow under a business id, or joins the run already going under that id, so a retried
 * HTTP call never starts a second one; `policy` says what happens when a run under the id is going or
 * has closed. Every workflow start of the service goes through here.
 *
 * With `ownRunsOnly`, a run is joined (or reported completed or running) only if the caller's company
 * started it (its `DppCompanyId`, which is `searchAttributes.company`); another company's run throws
 * `ownRunsOnly()` instead, so its handle, and with it its result, never reaches the caller. For ids that do
 * not name the company (e.g. `mint:{env}:{chipUid}`, where one chip has one passport whichever company asks).
 */
export async function startOrJoin<W extends Workflow>(
  gateway: WorkflowGateway,
  workflow: string,
  options: StartOrJoinOptions<W>,
): Promise<StartedOrJoined<W>> {
  const policy = options.policy ?? 'join';
  // Only a run seen to be the caller's may be joined. USE_EXISTING would join silently and not say whether it
  // started a run or joined one (the SDK drops the answer's `started`), so every start would need a describe;
  // with FAIL the start is refused instead, and only a refused start costs one.
  const idPolicies = options.ownRunsOnly
    ? { ...ID_POLICIES[policy], workflowIdConflictPolicy: 'FAIL' }
    : ID_POLICIES[policy];
  try {
    const handle: WorkflowHandleWithFirstExecutionRunId<W> = await gateway.client.workflow.start(
      workflow as unknown as W,
      {
        workflowId: options.workflowId,
        taskQueue: taskQueueFor(gateway.taskQueuePrefix, options.environment),
        args: options.args,
        ...idPolicies,
        staticSummary: options.summary,
        typedSearchAttributes: searchAttributePairs(options.searchAttributes),
      } as unknown as WorkflowStartOptions<W>,
    );
    return { handle, alreadyCompleted: false, alreadyRunning: false };
  } catch (error) {
    if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
  }
  const latest = gateway.client.workflow.getHandle<W>(options.workflowId);
  const running = policy === 'exclusive';
  const { ownRunsOnly } = options;
  // The company is checked whatever the policy; only `join` and `once` join a run that is going.
  if (ownRunsOnly && (await ownRunGoing(latest, options.searchAttributes.company, ownRunsOnly)) && !running) {
    return { handle: latest, alreadyCompleted: false, alreadyRunning: false };
  }
  return { handle: latest, alreadyCompleted: !running, alreadyRunning: running };
}

/**
 * Whether the latest run under the id (which refused a start) is going; throws `refuse()` if another company
 * than the caller's started it. A run that closed a moment before is not joined but reported completed, as it
 * was when its close beat the start to the server.
 */
async function ownRunGoing(
  run: WorkflowHandle,
  callerCompany: string | undefined,
  refuse: () => Error,
): Promise<boolean> {
  const described = await run.describe();
  const company = described.typedSearchAttributes.get(searchAttributes.company);
  if (company === undefined || company !== callerCompany) throw refuse();
  return described.status.name === 'RUNNING';
}

/** The workflow's result if it finishes within `ms`, else `undefined` (the run goes on). */
export async function resultWithin<T>(
  handle: { result(): Promise<T> },
  ms: number,
): Promise<{ done: true; value: T } | { done: false }> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<{ done: false }>((resolve) => {
    timer = setTimeout(() => resolve({ done: false }), ms);
  });
  try {
    return await Promise.race([handle.result().then((value) => ({ done: true as const, value })), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
