import type { Logger } from '../logging/logger.ts';

export interface ShutdownStep {
  name: string;
  run: () => Promise<void>;
}

/**
 * Runs `steps` in order once on SIGINT/SIGTERM. Each step is logged; one failing step does not stop the
 * others. A repeated signal more than two seconds later exits at once (Ctrl-C under `npm start` delivers
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
    let failed = false;
    for (const step of steps) {
      try {
        await step.run();
        logger.info(`stopped ${step.name}`);
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
