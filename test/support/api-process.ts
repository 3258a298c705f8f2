import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { freePort } from '../../src/platform/runtime/ports.ts';

const API_MAIN = fileURLToPath(new URL('../../api/main.ts', import.meta.url));

export interface ApiProcess {
  url: string;
  pid: number;
  /** kill -9: no drain, no goodbye. */
  kill(): Promise<void>;
  stop(): Promise<void>;
}

/** The production API entry point (api/main.ts) in its own process, configured by `env` only. */
export async function startApiProcess(env: Record<string, string>): Promise<ApiProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, [API_MAIN], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { PATH: process.env.PATH, LOG_LEVEL: 'info', PORT: String(port), ...env },
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await listening(child);
  return {
    url: `http://127.0.0.1:${port}`,
    pid: child.pid!,
    kill: async () => {
      child.kill('SIGKILL');
      await exited;
    },
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

function listening(child: ChildProcess): Promise<void> {
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`the API did not start:\n${output}`)), 60_000);
    child.stdout!.on('data', (chunk: Buffer) => {
      output = (output + chunk.toString()).slice(-20_000);
      if (output.includes('"msg":"API listening"')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the API exited (${code}) before listening:\n${output}`));
    });
  });
}
