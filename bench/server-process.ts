import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { freePort, isListening } from '../src/platform/runtime/ports.ts';
import { sampleThreads } from './cpu.ts';

/** The API's entry point, as `npm start` runs it. */
export const API_MAIN = fileURLToPath(new URL('../api/main.ts', import.meta.url));

/** A server script (the API's api/main.ts, a bare baseline) in its own process, as production runs it. */
export interface Server {
  url: string;
  /** CPU (user + system) the server process has used so far, in ms. */
  cpuMs(): number;
  stop(): Promise<void>;
}

export async function startServer(
  script: string,
  env: Record<string, string>,
  execArgv: string[] = [],
): Promise<Server> {
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, [...execArgv, script], {
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { PATH: process.env.PATH, HOST: '127.0.0.1', PORT: String(port), ...env },
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const deadline = Date.now() + 60_000;
  while (!(await isListening(port))) {
    if (child.exitCode !== null || Date.now() > deadline)
      throw new Error(`${script} did not start listening`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    url: `http://127.0.0.1:${port}`,
    cpuMs: () => Object.values(sampleThreads(child.pid!)).reduce((a, b) => a + b, 0),
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
    },
  };
}
