import type { ActivityState } from './activities.ts';
import type { LockHandle, TimerHandle } from './clock.ts';
import type { ServerEnv } from './env.ts';
import { History } from './history.ts';
import {
  enums,
  type IFailure,
  type IHeader,
  type IPayload,
  type IPayloads,
  type IRetryPolicy,
  type IUserMetadata,
  type temporal,
} from './proto.ts';
import type { PendingQuery } from './queries.ts';

/** What a run was started with; fixed for the run's lifetime. */
export interface RunConfig {
  namespace: string;
  workflowId: string;
  workflowType: string;
  taskQueue: string;
  input: IPayloads | null;
  header: IHeader | null;
  executionTimeoutMs: number;
  runTimeoutMs: number;
  taskTimeoutMs: number;
  retryPolicy: IRetryPolicy | null;
  identity: string;
  requestId: string;
  userMetadata: IUserMetadata | null;
  priority: temporal.api.common.v1.IPriority | null;
  links: temporal.api.common.v1.ILink[];
  firstExecutionRunId: string;
  continuedExecutionRunId: string;
  initiator: number;
  continuedFailure: IFailure | null;
  lastCompletionResult: IPayloads | null;
  /** Absolute virtual time the whole chain of runs expires, 0 for none. */
  executionExpirationTime: number;
  firstWorkflowTaskBackoffMs: number;
  attempt: number;
}

export type WorkflowTaskPhase = 'none' | 'scheduled' | 'started';

export interface WorkflowTaskState {
  phase: WorkflowTaskPhase;
  scheduledEventId: number;
  startedEventId: number;
  attempt: number;
  scheduledTime: number;
  startedTime: number;
  /** Bumped whenever the task is (re)dispatched so older queue entries go stale. */
  dispatchSeq: number;
  lock: LockHandle | undefined;
  timer: TimerHandle | undefined;
  /** Queries delivered with this task (`queries` map of the poll response). */
  queries: PendingQuery[];
}

/** An event produced while a workflow task was running; written once that task finishes. */
export interface BufferedEvent {
  readonly needsWorkflowTask: boolean;
  readonly timerId?: string;
  write(): void;
}

export interface UserTimer {
  readonly timerId: string;
  readonly startedEventId: number;
  readonly handle: TimerHandle;
}

export interface StickyQueue {
  readonly name: string;
  readonly scheduleToStartTimeoutMs: number;
}

const Status = enums.WorkflowExecutionStatus;

export class WorkflowRun {
  readonly env: ServerEnv;
  readonly runId: string;
  readonly config: RunConfig;
  readonly history: History;
  readonly startTime: number;
  status: number = Status.WORKFLOW_EXECUTION_STATUS_RUNNING;
  closeTime = 0;
  /** The run this one continued into, if any. */
  nextRunId = '';
  memo: Record<string, IPayload>;
  searchAttributes: Record<string, IPayload>;
  readonly wft: WorkflowTaskState = {
    phase: 'none',
    scheduledEventId: 0,
    startedEventId: 0,
    attempt: 0,
    scheduledTime: 0,
    startedTime: 0,
    dispatchSeq: 0,
    lock: undefined,
    timer: undefined,
    queries: [],
  };
  /** Attempt number the next scheduled workflow task gets (grows while tasks fail or time out). */
  nextWorkflowTaskAttempt = 1;
  /** WorkflowTaskStarted id of the last completed task (the poll response's previousStartedEventId). */
  lastCompletedStartedEventId = 0;
  sticky: StickyQueue | undefined;
  readonly activities = new Map<number, ActivityState>();
  readonly timers = new Map<string, UserTimer>();
  buffered: BufferedEvent[] = [];
  /** Queries that arrived while a workflow task was running. */
  bufferedQueries: PendingQuery[] = [];
  cancelRequested = false;
  /** True until the first workflow task is scheduled (start delay). */
  awaitingFirstTask = true;
  readonly requestIds = new Set<string>();
  readonly closeTimers: TimerHandle[] = [];

  constructor(
    env: ServerEnv,
    runId: string,
    config: RunConfig,
    memo: Record<string, IPayload>,
    searchAttributes: Record<string, IPayload>,
  ) {
    this.env = env;
    this.runId = runId;
    this.config = config;
    this.history = new History(() => env.clock.now());
    this.startTime = env.clock.now();
    this.memo = memo;
    this.searchAttributes = searchAttributes;
    this.requestIds.add(config.requestId);
  }

  get namespace(): string {
    return this.config.namespace;
  }

  get workflowId(): string {
    return this.config.workflowId;
  }

  get isOpen(): boolean {
    return this.status === Status.WORKFLOW_EXECUTION_STATUS_RUNNING;
  }

  get execution(): { workflowId: string; runId: string } {
    return { workflowId: this.workflowId, runId: this.runId };
  }

  get executionTime(): number {
    return this.startTime + this.config.firstWorkflowTaskBackoffMs;
  }

  normalTaskQueue(): temporal.api.taskqueue.v1.ITaskQueue {
    return { name: this.config.taskQueue, kind: enums.TaskQueueKind.TASK_QUEUE_KIND_NORMAL };
  }

  /** The close event, if the run is closed. */
  closeEvent(): temporal.api.history.v1.IHistoryEvent | undefined {
    if (this.isOpen) return undefined;
    return this.history.events[this.history.events.length - 1];
  }
}
