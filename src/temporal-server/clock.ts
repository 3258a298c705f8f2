/**
 * One virtual clock for the whole server.
 *
 * In dev mode it is the wall clock. In time-skipping mode it follows the official Java test server: time
 * runs at wall-clock speed while anything holds a lock (a caller through the TestService, a pending or
 * running workflow task, an activity that is scheduled or running), and when nothing does, the clock jumps
 * straight to the next scheduled deadline.
 */
export interface LockHandle {
  release(): void;
}

export interface TimerHandle {
  cancel(): void;
}

interface TimerTask {
  at: number;
  seq: number;
  fire: () => void;
  cancelled: boolean;
}

// setTimeout cannot wait longer than 2^31-1 ms; re-arm in chunks instead.
const MAX_REAL_WAIT_MS = 60 * 60 * 1000;

export class VirtualClock {
  readonly skipping: boolean;
  #offsetMs = 0;
  #internalLocks = 0;
  /**
   * Locks taken through the TestService. May go negative: concurrent `result()` calls each unlock once
   * before each locking again, and that must not fail.
   */
  #externalLocks = 0;
  #seq = 0;
  #queue: TimerTask[] = [];
  #realTimer: NodeJS.Timeout | undefined;
  #pumpScheduled = false;
  #stopped = false;
  readonly #onError: (err: unknown) => void;

  constructor(skipping: boolean, onError: (err: unknown) => void) {
    this.skipping = skipping;
    this.#onError = onError;
    // The test server starts locked; TimeSkippingWorkflowClient unlocks only while awaiting a result.
    if (skipping) this.lockExternal();
  }

  now(): number {
    return Date.now() + this.#offsetMs;
  }

  get #locked(): boolean {
    return this.#internalLocks + Math.max(0, this.#externalLocks) > 0;
  }

  lock(): LockHandle {
    this.#internalLocks++;
    let released = false;
    return {
      release: () => {
        if (released) return;
        released = true;
        this.#internalLocks--;
        if (!this.#locked) this.#schedulePump();
      },
    };
  }

  lockExternal(): void {
    this.#externalLocks++;
  }

  unlockExternal(): void {
    this.#externalLocks--;
    if (!this.#locked) this.#schedulePump();
  }

  at(timeMs: number, fire: () => void): TimerHandle {
    const task: TimerTask = { at: timeMs, seq: this.#seq++, fire, cancelled: false };
    let lo = 0;
    let hi = this.#queue.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const other = this.#queue[mid]!;
      if (other.at < task.at || (other.at === task.at && other.seq < task.seq)) lo = mid + 1;
      else hi = mid;
    }
    this.#queue.splice(lo, 0, task);
    if (lo === 0) this.#schedulePump();
    return {
      cancel: () => {
        task.cancelled = true;
      },
    };
  }

  after(delayMs: number, fire: () => void): TimerHandle {
    return this.at(this.now() + Math.max(0, delayMs), fire);
  }

  sleepUntil(timeMs: number): Promise<void> {
    return new Promise((resolve) => this.at(timeMs, resolve));
  }

  stop(): void {
    this.#stopped = true;
    clearTimeout(this.#realTimer);
    this.#queue = [];
  }

  #schedulePump(): void {
    if (this.#pumpScheduled || this.#stopped) return;
    this.#pumpScheduled = true;
    setImmediate(() => this.#pump());
  }

  #pump(): void {
    this.#pumpScheduled = false;
    clearTimeout(this.#realTimer);
    this.#realTimer = undefined;
    for (;;) {
      if (this.#stopped) return;
      while (this.#queue[0]?.cancelled) this.#queue.shift();
      const head = this.#queue[0];
      if (!head) return;
      const now = this.now();
      if (head.at <= now) {
        this.#queue.shift();
        try {
          head.fire();
        } catch (err) {
          this.#onError(err);
        }
        continue;
      }
      if (this.skipping && !this.#locked) {
        this.#offsetMs += head.at - now;
        continue;
      }
      this.#realTimer = setTimeout(() => this.#pump(), Math.min(head.at - now, MAX_REAL_WAIT_MS));
      return;
    }
  }
}
