import type { VirtualClock } from './clock.ts';
import type { Logger } from './logger.ts';
import type { NamespaceRegistry } from './namespaces.ts';
import type { WorkflowStore } from './store.ts';
import type { TaskQueueRegistry } from './task-queues.ts';

/** Everything the workflow engine shares: passed explicitly instead of living in module globals. */
export interface ServerEnv {
  readonly clock: VirtualClock;
  readonly queues: TaskQueueRegistry;
  readonly store: WorkflowStore;
  readonly namespaces: NamespaceRegistry;
  readonly log: Logger;
  /** How long an empty long poll waits before answering with an empty response. */
  readonly pollTimeoutMs: number;
}
