import type { VirtualClock } from './clock.ts';
import type { Handler } from './grpc-server.ts';
import { durationToMs, msToTimestamp, type TestRequest, timestampToMs } from './proto.ts';

/**
 * The time-skipping TestService, with the official test server's semantics: the lock counter starts at
 * one (unbalanced unlocks from concurrent `result()` calls are tolerated), `UnlockTimeSkippingWithSleep` unlocks for the duration of the sleep and locks again before
 * answering, `Sleep`/`SleepUntil` wait in virtual time without touching the lock.
 */
export function testServiceHandlers(clock: VirtualClock): Record<string, Handler> {
  return {
    LockTimeSkipping: () => {
      clock.lockExternal();
      return {};
    },
    UnlockTimeSkipping: () => {
      clock.unlockExternal();
      return {};
    },
    Sleep: async (request: TestRequest<'SleepRequest'>) => {
      await clock.sleepUntil(clock.now() + durationToMs(request.duration));
      return {};
    },
    SleepUntil: async (request: TestRequest<'SleepUntilRequest'>) => {
      await clock.sleepUntil(timestampToMs(request.timestamp));
      return {};
    },
    UnlockTimeSkippingWithSleep: async (request: TestRequest<'SleepRequest'>) => {
      const wakeAt = clock.now() + durationToMs(request.duration);
      // The clock only moves on a later tick, so unlocking before scheduling the wake-up is safe.
      clock.unlockExternal();
      await new Promise<void>((resolve) => {
        // Re-lock inside the timer callback itself so the clock cannot skip past the wake-up time.
        clock.at(wakeAt, () => {
          clock.lockExternal();
          resolve();
        });
      });
      return {};
    },
    GetCurrentTime: () => ({ time: msToTimestamp(clock.now()) }),
  };
}
