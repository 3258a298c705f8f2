import { spawn } from 'node:child_process';
import { mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';

/**
 * Development tools the project obtains itself (official Temporal servers, stripe-mock) are kept under
 * `.cache/` in the checkout, one directory per tool and version, reused by every later run.
 */
export const TOOL_CACHE = join(resolve(import.meta.dirname, '../..'), '.cache');

export async function isExecutable(path: string): Promise<boolean> {
  const info = await stat(path).catch(() => undefined);
  return info?.isFile() === true && (info.mode & 0o111) !== 0;
}

export async function executableIn(dir: string): Promise<string | undefined> {
  const names = await readdir(dir).catch(() => [] as string[]);
  for (const name of names) {
    if (await isExecutable(join(dir, name))) return join(dir, name);
  }
  return undefined;
}

/**
 * Fills `dir` through a staging directory renamed into place at the end, so a crash never leaves a half
 * tool behind, and two processes obtaining the same version at once both end up with one (the first's).
 */
export async function buildInto(dir: string, build: (staging: string) => Promise<void>): Promise<void> {
  const staging = `${dir}.building-${process.pid}`;
  await rm(staging, { recursive: true, force: true });
  await mkdir(staging, { recursive: true });
  try {
    await build(staging);
  } catch (error) {
    await rm(staging, { recursive: true, force: true });
    throw error;
  }
  try {
    await rename(staging, dir);
  } catch {
    await rm(staging, { recursive: true, force: true });
  }
}

/** `go install module@version` into `bin` (the Go module proxy, honouring GOPROXY/GOTOOLCHAIN as set). */
export function goInstall(bin: string, moduleAtVersion: string, ldflags?: string): Promise<void> {
  return runTool('go', ['install', ...(ldflags ? ['-ldflags', ldflags] : []), moduleAtVersion], {
    ...process.env,
    GOBIN: bin,
    GOFLAGS: '-buildvcs=false',
  });
}

/** Runs a tool to completion; a failure carries the tail of its output. */
export function runTool(
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv = process.env,
): Promise<void> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], env });
    let output = '';
    const keep = (chunk: Buffer) => {
      output = (output + chunk.toString()).slice(-4000);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    child.once('error', (error) => reject(new Error(`${command}: ${error.message}`)));
    child.once('exit', (code) =>
      code === 0
        ? resolvePromise()
        : reject(new Error(`${command} ${args.join(' ')} exited with ${code}\n${output.trim()}`)),
    );
  });
}

/** Runs a tool to completion and returns what it printed on standard output. */
export function toolOutput(command: string, args: string[]): Promise<string> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.stderr.resume();
    child.once('error', (error) => reject(new Error(`${command}: ${error.message}`)));
    child.once('exit', (code) =>
      code === 0
        ? resolvePromise(output)
        : reject(new Error(`${command} ${args.join(' ')} exited with ${code}`)),
    );
  });
}

export function secondsSince(since: number): string {
  return ((Date.now() - since) / 1000).toFixed(0);
}
