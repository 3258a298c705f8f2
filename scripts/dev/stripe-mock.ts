import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildInto, goInstall, isExecutable, secondsSince, TOOL_CACHE } from './tool-cache.ts';

/**
 * Stripe's own API mock, built from its published Go source. v0.203.0 validates every request against Stripe's
 * OpenAPI description of API version 2026-08-26.dahlia, the version the pinned `stripe` SDK (22.6.2) sends.
 * It keeps no state and sends no webhooks: our state lives in PostgreSQL, driven by signed events.
 */
export const STRIPE_MOCK_VERSION = '0.203.0';

export class StripeMockUnavailable extends Error {}

/** STRIPE_MOCK_PATH → the cached build → `go install` from the module proxy → an error saying how to get one. */
export async function obtainStripeMock(log: (line: string) => void = () => {}): Promise<string> {
  if (process.env.STRIPE_MOCK_PATH) return process.env.STRIPE_MOCK_PATH;
  const dir = join(TOOL_CACHE, 'stripe-mock', `v${STRIPE_MOCK_VERSION}`);
  const path = join(dir, 'stripe-mock');
  if (await isExecutable(path)) return path;
  log(`stripe-mock: building v${STRIPE_MOCK_VERSION} from the Go module proxy into ${dir} (once)`);
  const started = Date.now();
  try {
    await buildInto(dir, (staging) =>
      goInstall(staging, `github.com/stripe/stripe-mock@v${STRIPE_MOCK_VERSION}`),
    );
  } catch (error) {
    throw new StripeMockUnavailable(
      `Could not obtain stripe-mock: ${(error as Error).message}\n` +
        'Install Go (the module proxy must be reachable), or set STRIPE_MOCK_PATH, or configure real Stripe ' +
        'test keys (STRIPE_SECRET_KEY_TEST, STRIPE_WEBHOOK_SECRET_TEST).',
    );
  }
  log(`stripe-mock: built in ${secondsSince(started)} s`);
  return path;
}

export interface RunningStripeMock {
  /** Base URL to point the Stripe SDK at (STRIPE_API_BASE). */
  url: string;
  stop(): Promise<void>;
}

/**
 * Starts stripe-mock on 127.0.0.1 (the port the system gives it unless one is asked for), refusing requests
 * of another API version. Its HTTPS listener, which it opens whatever we ask, goes to a Unix socket so it
 * takes no TCP port another process chose a moment ago.
 */
export async function startStripeMock(path: string, port = 0): Promise<RunningStripeMock> {
  const socketDir = await mkdtemp(join(tmpdir(), 'stripe-mock-'));
  const child = spawn(
    path,
    [
      '-http-addr',
      `127.0.0.1:${port}`,
      '-https-unix',
      join(socketDir, 'https.sock'),
      '-strict-version-check',
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const listening = await new Promise<number>((resolve, reject) => {
    let output = '';
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /Listening for HTTP at address: 127\.0\.0\.1:(\d+)/.exec(output);
      if (match) done(undefined, Number(match[1]));
    };
    const onExit = (code: number | null) => {
      done(new Error(`stripe-mock exited (${code}) before listening:\n${output.slice(-2000)}`));
    };
    const done = (error?: Error, listeningPort = 0) => {
      child.stdout!.off('data', onData);
      child.stderr!.off('data', onData);
      child.off('exit', onExit);
      if (error) reject(error);
      else resolve(listeningPort);
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', onExit);
  });
  // Drain its output (a request log line each) so a full pipe never blocks it.
  child.stdout!.resume();
  child.stderr!.resume();
  return {
    url: `http://127.0.0.1:${listening}`,
    stop: async () => {
      await stop(child);
      await rm(socketDir, { recursive: true, force: true });
    },
  };
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}
