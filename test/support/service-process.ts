import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const START = fileURLToPath(new URL('../../scripts/start.ts', import.meta.url));

export interface ServiceProcess {
  /** Everything the process printed so far. */
  output(): string;
  /** A line of the start banner, e.g. `line('Temporal UI')`. */
  bannerValue(label: string): string;
  /** SIGTERM (Ctrl-C's clean stop); resolves with the exit code once it is gone. */
  stop(): Promise<number | null>;
}

/** `npm start` (scripts/start.ts) in its own process, configured only by `env`; resolves at its banner. */
export async function startServiceProcess(env: Record<string, string>): Promise<ServiceProcess> {
  const child = spawn(process.execPath, [START], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
  });
  let output = '';
  const collect = (chunk: Buffer) => {
    output += chunk.toString();
  };
  child.stdout!.on('data', collect);
  child.stderr!.on('data', collect);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  await waitFor(
    child,
    () => output.includes('Ctrl-C stops everything'),
    120_000,
    () => output,
  );
  return {
    output: () => output,
    bannerValue(label) {
      const line = output.split('\n').find((l) => l.trimStart().startsWith(label));
      if (!line) throw new Error(`no "${label}" line in the banner:\n${output}`);
      return line.trim().slice(label.length).trim().split(/\s+/)[0]!;
    },
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
}

function waitFor(child: ChildProcess, done: () => boolean, ms: number, output: () => string): Promise<void> {
  return new Promise((resolve, reject) => {
    const check = () => {
      if (!done()) return;
      cleanup();
      resolve();
    };
    const timer = setTimeout(() => {
      cleanup();
      reject(new Error(`npm start printed no banner within ${ms} ms:\n${output()}`));
    }, ms);
    const onExit = (code: number | null) => {
      cleanup();
      reject(new Error(`npm start exited (${code}) before its banner:\n${output()}`));
    };
    const cleanup = () => {
      clearTimeout(timer);
      child.stdout!.off('data', check);
      child.off('exit', onExit);
    };
    child.stdout!.on('data', check);
    child.once('exit', onExit);
  });
}
