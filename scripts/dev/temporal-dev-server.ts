import { type ChildProcess, spawn } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { freePort, isListening } from '../../src/platform/runtime/ports.ts';
import { searchAttributes } from '../../src/processes/search-attributes.ts';

export interface DevServerOptions {
  /** The Temporal CLI (scripts/dev/temporal-binaries.ts). */
  cliPath: string;
  /** gRPC port; 0 picks a free one. */
  port: number;
  /** Web UI port; undefined runs headless. */
  uiPort?: number;
  /** SQLite file that keeps workflows across restarts; undefined keeps them in memory. */
  dbFilename?: string;
  namespace?: string;
  /** Where the server's own output goes (it prints a banner and its log lines). */
  output?: (line: string) => void;
}

export interface DevServer {
  address: string;
  uiUrl: string | undefined;
  pid: number;
  stop(): Promise<void>;
}

const READY_TIMEOUT_MS = 60_000;

/**
 * `temporal server start-dev` as a child process: the official server with SQLite persistence, our search
 * attributes registered at start and, when asked, the Web UI. Resolves once the frontend accepts connections.
 */
export async function startDevServer(options: DevServerOptions): Promise<DevServer> {
  // A free port can be taken by someone else before the server binds it: then try another one.
  for (let attempt = 1; ; attempt++) {
    const port = options.port === 0 ? await freePort() : options.port;
    try {
      return await startOnPort(options, port);
    } catch (error) {
      if (options.port !== 0 || attempt === 3) throw error;
    }
  }
}

async function startOnPort(options: DevServerOptions, port: number): Promise<DevServer> {
  const args = ['server', 'start-dev', '--ip', '127.0.0.1', '--port', String(port), '--log-level', 'warn'];
  if (options.uiPort === undefined) args.push('--headless');
  else args.push('--ui-port', String(options.uiPort));
  if (options.dbFilename) {
    await mkdir(dirname(options.dbFilename), { recursive: true });
    args.push('--db-filename', options.dbFilename);
  }
  if (options.namespace && options.namespace !== 'default') args.push('--namespace', options.namespace);
  for (const key of Object.values(searchAttributes)) args.push('--search-attribute', `${key.name}=Keyword`);

  const child = spawn(options.cliPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  const output = options.output ?? (() => {});
  let tail = '';
  let bannerSeen: () => void = () => {};
  // The CLI prints its banner once the server has started: "Server: …" up to 1.5, "Temporal Server: …" since.
  const banner = new Promise<void>((resolve) => {
    bannerSeen = resolve;
  });
  const collect = (chunk: Buffer) => {
    const text = chunk.toString();
    tail = (tail + text).slice(-4000);
    for (const line of text.split('\n')) {
      if (!line.trim()) continue;
      if (/^(Temporal )?Server:/.test(line)) bannerSeen();
      output(line);
    }
  };
  child.stdout!.on('data', collect);
  child.stderr!.on('data', collect);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));

  const ready = await Promise.race([
    banner.then(() => waitForPort(port, READY_TIMEOUT_MS)).then(() => true),
    exited.then(() => false),
    new Promise<false>((resolve) => setTimeout(() => resolve(false), READY_TIMEOUT_MS).unref()),
  ]);
  if (!ready) {
    await stopChild(child, exited);
    throw new Error(`temporal server start-dev on port ${port} did not become ready:\n${tail.trim()}`);
  }
  return {
    address: `127.0.0.1:${port}`,
    uiUrl: options.uiPort === undefined ? undefined : `http://localhost:${options.uiPort}`,
    pid: child.pid!,
    stop: () => stopChild(child, exited),
  };
}

async function stopChild(child: ChildProcess, exited: Promise<number | null>): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

async function waitForPort(port: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await isListening(port)) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`nothing listened on port ${port} within ${timeoutMs} ms`);
}
