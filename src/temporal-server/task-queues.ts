import type { CallContext } from './grpc-server.ts';

/** Who is asking for work; handed to a task when it is matched with a poll. */
export interface PollerInfo {
  readonly identity: string;
  /** True when the poll came in on a sticky (worker-specific) queue. */
  readonly sticky: boolean;
  /** The SDK worker's instance key, used to end its polls when it shuts down. */
  readonly workerKey?: string;
}

/**
 * A unit of work waiting in a queue. `start` is called when a poller takes it and returns the poll
 * response, or undefined when the task went stale in the meantime (then it is dropped).
 */
export interface QueuedTask<Response> {
  start(poller: PollerInfo): Response | undefined;
}

interface WaitingPoller<Response> {
  readonly info: PollerInfo;
  readonly ctx: CallContext;
  deliver(response: Response | undefined): void;
}

export class TaskQueue<Response> {
  #tasks: QueuedTask<Response>[] = [];
  #pollers: WaitingPoller<Response>[] = [];
  lastPollTime = 0;

  get backlog(): number {
    return this.#tasks.length;
  }

  add(task: QueuedTask<Response>): void {
    while (this.#pollers.length > 0) {
      const poller = this.#pollers.shift()!;
      if (poller.ctx.cancelled) continue;
      const response = safeStart(task, poller.info);
      if (response !== undefined) poller.deliver(response);
      return;
    }
    this.#tasks.push(task);
  }

  /** Long-polls for a task; resolves undefined after `timeoutMs` or when the caller cancels. */
  poll(info: PollerInfo, ctx: CallContext, timeoutMs: number, now: number): Promise<Response | undefined> {
    this.lastPollTime = now;
    while (this.#tasks.length > 0) {
      const response = safeStart(this.#tasks.shift()!, info);
      if (response !== undefined) return Promise.resolve(response);
    }
    return new Promise((resolve) => {
      let done = false;
      let stopListening = () => {};
      const poller: WaitingPoller<Response> = {
        info,
        ctx,
        deliver: (response) => {
          if (done) return;
          done = true;
          clearTimeout(timer);
          stopListening();
          this.#pollers = this.#pollers.filter((p) => p !== poller);
          resolve(response);
        },
      };
      const timer = setTimeout(() => poller.deliver(undefined), timeoutMs);
      this.#pollers.push(poller);
      // A cancelled poll must leave the queue at once, or tasks would be handed to a dead caller.
      stopListening = ctx.onCancel(() => poller.deliver(undefined));
    });
  }

  /** Ends waiting polls (all, or one worker's) with an empty response. */
  releasePollers(workerKey?: string): void {
    for (const poller of [...this.#pollers]) {
      if (workerKey === undefined || poller.info.workerKey === workerKey) poller.deliver(undefined);
    }
  }
}

function safeStart<Response>(task: QueuedTask<Response>, info: PollerInfo): Response | undefined {
  try {
    return task.start(info);
  } catch (err) {
    console.error('[temporal-server] ERROR starting a task failed', err);
    return undefined;
  }
}

export type QueueKind = 'workflow' | 'activity';

export class TaskQueueRegistry {
  #queues = new Map<string, TaskQueue<unknown>>();
  #stoppedWorkers = new Set<string>();

  /**
   * A worker announced its shutdown: its outstanding polls end now, empty, and later ones get nothing.
   * (Workers then let polls finish instead of cancelling them, so no task is lost to a cancelled poll.)
   */
  stopWorker(workerKey: string): void {
    if (!workerKey) return;
    this.#stoppedWorkers.add(workerKey);
    for (const queue of this.#queues.values()) queue.releasePollers(workerKey);
  }

  isStopped(workerKey: string | undefined): boolean {
    return !!workerKey && this.#stoppedWorkers.has(workerKey);
  }

  get<Response>(namespace: string, kind: QueueKind, name: string): TaskQueue<Response> {
    const key = `${namespace}\u0000${kind}\u0000${name}`;
    let queue = this.#queues.get(key);
    if (!queue) {
      queue = new TaskQueue<unknown>();
      this.#queues.set(key, queue);
    }
    return queue as TaskQueue<Response>;
  }

  releaseAll(): void {
    for (const queue of this.#queues.values()) queue.releasePollers();
  }
}
