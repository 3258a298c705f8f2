import { ApplicationFailure, Context } from '@temporalio/activity';

/** What the activities saw, for assertions: calls per activity and the attempts' scheduled times. */
export interface ActivityLog {
  calls: Record<string, number>;
  attemptScheduledTimes: number[];
  cancelled: number;
}

/** Activities for the conformance workflows, recording into a fresh log per test file. */
export function createActivities() {
  const log: ActivityLog = { calls: {}, attemptScheduledTimes: [], cancelled: 0 };
  const count = (name: string) => {
    log.calls[name] = (log.calls[name] ?? 0) + 1;
  };
  const activities = {
    async greet(name: string): Promise<string> {
      count('greet');
      return `Hello, ${name}!`;
    },

    /** Fails with a retryable error until `succeedOnAttempt`; returns the attempt that succeeded. */
    async flaky(succeedOnAttempt: number): Promise<number> {
      count('flaky');
      const { attempt, currentAttemptScheduledTimestampMs } = Context.current().info;
      log.attemptScheduledTimes.push(currentAttemptScheduledTimestampMs);
      if (attempt < succeedOnAttempt)
        throw ApplicationFailure.retryable(`attempt ${attempt} failed`, 'Flaky');
      return attempt;
    },

    async alwaysFails(kind: 'nonRetryable' | 'typed'): Promise<never> {
      count('alwaysFails');
      if (kind === 'nonRetryable') throw ApplicationFailure.nonRetryable('cannot succeed', 'Fatal');
      throw ApplicationFailure.create({ type: 'BadInput', message: 'bad input' });
    },

    /** Sleeps (cancellably) for `ms` of real time. */
    async sleepy(ms: number): Promise<string> {
      count('sleepy');
      await Context.current().sleep(ms);
      return 'slept';
    },

    /** Heartbeats once, then hangs; a retry reports what the previous attempt checkpointed. */
    async checkpointThenHang(hangOnEveryAttempt: boolean): Promise<{ attempt: number; details: unknown }> {
      count('checkpointThenHang');
      const { attempt, heartbeatDetails } = Context.current().info;
      if (attempt > 1 && !hangOnEveryAttempt) return { attempt, details: heartbeatDetails };
      Context.current().heartbeat(`checkpoint-${attempt}`);
      await Context.current().sleep(60_000);
      return { attempt, details: heartbeatDetails };
    },

    /** Heartbeats until the server reports a cancellation request, then lets the cancellation through. */
    async heartbeatUntilCancelled(): Promise<string> {
      count('heartbeatUntilCancelled');
      const ctx = Context.current();
      try {
        for (;;) {
          ctx.heartbeat();
          await ctx.sleep(50);
        }
      } catch (err) {
        log.cancelled++;
        throw err;
      }
    },
  };
  return { log, activities };
}

export type ConformanceActivities = ReturnType<typeof createActivities>['activities'];
