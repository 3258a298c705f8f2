/**
 * Runs `task` every `everyMs` (the first run after one interval) until stopped, never two runs at once: a tick
 * that comes while a run is going is skipped. A failed run is reported to `onError` and tried again at the next
 * tick. The timer does not keep the process alive; `stop()` waits for the run in progress.
 */
export function runPeriodically(
  everyMs: number,
  task: () => Promise<void>,
  onError: (error: unknown) => void,
): { stop(): Promise<void> } {
  let running: Promise<void> | undefined;
  const timer = setInterval(() => {
    running ??= task()
      .catch(onError)
      .finally(() => {
        running = undefined;
      });
  }, everyMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
