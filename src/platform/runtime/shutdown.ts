import type { Logger } from '../logging/logger.ts';

export interface ShutdownStep {
  name: string;
  run: () => Promise<void>;
}

/** How long one step may take before the next one runs anyway, and the whole shutdown before exiting. */
export const SHUTDOWN_STEP_LIMIT_MS = 10_000;
export const SHUTDOWN_LIMIT_MS = 14_000;

/**
 * Runs `steps` in order once on SIGINT/SIGTERM. Each step is logged; one failing or hanging step does not stop
 * the others (each gets SHUTDOWN_STEP_LIMIT_MS), and the process exits within SHUTDOWN_LIMIT_MS whatever
 * happens. A repeated signal more than two seconds later exits at once (Ctrl-C under `npm start` delivers
 * SIGINT twice at the same moment: once from the terminal, once forwarded by npm).
 */
export function onShutdown(logger: Logger, steps: ShutdownStep[]): void {
  let stoppingSince: number | undefined;
  const handler = async (signal: NodeJS.Signals) => {
    if (stoppingSince !== undefined) {
      if (Date.now() - stoppingSince < 2000) return;
      logger.warn({ signal }, 'repeated signal: exiting now');
      process.exit(1);
    }
    stoppingSince = Date.now();
    logger.info({ signal }, 'shutting down');
    let current = '';
    setTimeout(() => {
      logger.error(`shutdown did not finish within ${SHUTDOWN_LIMIT_MS} ms (at ${current}): exiting now`);
      process.exit(1);
    }, SHUTDOWN_LIMIT_MS).unref();
    let failed = false;
    for (const step of steps) {
      current = step.name;
      try {
        if (await finishesWithin(step.run(), SHUTDOWN_STEP_LIMIT_MS)) logger.info(`stopped ${step.name}`);
        else {
          failed = true;
          logger.error(`${step.name} did not stop within ${SHUTDOWN_STEP_LIMIT_MS} ms: going on`);
        }
      } catch (error) {
        failed = true;
        logger.error({ err: error }, `failed to stop ${step.name}`);
      }
    }
    process.exit(failed ? 1 : 0);
  };
  process.on('SIGINT', handler);
  process.on('SIGTERM', handler);
}

async function finishesWithin(work: Promise<void>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  try {
    return await Promise.race([work.then(() => true as const), late]);
  } finally {
    clearTimeout(timer);
  }
}
