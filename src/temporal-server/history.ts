import type { CallContext } from './grpc-server.ts';
import { type IHistoryEvent, int64, msToTimestamp } from './proto.ts';

let nextTaskId = 1;

/** The event history of one workflow run, with long-poll support for readers waiting on new events. */
export class History {
  readonly events: IHistoryEvent[] = [];
  readonly #now: () => number;
  #waiters = new Set<() => void>();

  constructor(now: () => number) {
    this.#now = now;
  }

  get nextEventId(): number {
    return this.events.length + 1;
  }

  get lastEventId(): number {
    return this.events.length;
  }

  /** Appends an event, assigning its id, time and task id. */
  append(
    event: Omit<IHistoryEvent, 'eventId' | 'eventTime' | 'taskId'>,
  ): IHistoryEvent & { eventId: number } {
    const eventId = this.nextEventId;
    const full = {
      ...event,
      eventId: int64(eventId),
      eventTime: msToTimestamp(this.#now()),
      taskId: int64(nextTaskId++),
    };
    this.events.push(full);
    this.notify();
    // int64() is only a typing cast: at run time eventId is the plain number.
    return full as IHistoryEvent & { eventId: number };
  }

  /** Events with id > afterEventId. */
  eventsAfter(afterEventId: number): IHistoryEvent[] {
    return this.events.slice(afterEventId);
  }

  notify(): void {
    const waiters = [...this.#waiters];
    this.#waiters.clear();
    for (const wake of waiters) wake();
  }

  /** Resolves on the next append or close, after `timeoutMs`, or when the caller cancels. */
  waitForChange(timeoutMs: number, ctx: CallContext): Promise<void> {
    return new Promise((resolve) => {
      let stopListening = () => {};
      const wake = () => {
        clearTimeout(timer);
        stopListening();
        this.#waiters.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, timeoutMs);
      this.#waiters.add(wake);
      stopListening = ctx.onCancel(wake);
    });
  }
}
