import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface ServiceProcess {
  /** Everything the process printed so far. */
  output(): string;
  /** A line of the start banner, e.g. `line('Temporal UI')`. */
  bannerValue(label: string): string;
  /**
   * A terminal's Ctrl-C: SIGINT to the whole process group (npm, the shell, node and every server they
   * started). Resolves once no process of the group is left, with npm's exit code and how long it took.
   */
  stop(signal?: NodeJS.Signals): Promise<{ exit: string; ms: number; leftBehind: boolean }>;
}

/**
 * `npm start` itself (the README's command, in its own process group as a terminal runs it), configured only by
 * `env`; resolves at its banner.
 */
export async function startServiceProcess(env: Record<string, string>): Promise<ServiceProcess> {
  const child = spawn('npm', ['start'], {
    cwd: ROOT,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
  });
  let output = '';
  const collect = (chunk: Buffer) => {
    output += chunk.toString();
  };
  child.stdout!.on('data', collect);
  child.stderr!.on('data', collect);
  // npm, like a shell, ends by the signal it was sent once its script has stopped: "signal SIGINT".
  const exited = new Promise<string>((resolve) =>
    child.once('exit', (code, signal) => resolve(signal ? `signal ${signal}` : `code ${code}`)),
  );
  try {
    await waitFor(
      child,
      () => output.includes('Ctrl-C stops everything'),
      180_000,
      () => output,
    );
  } catch (error) {
    killGroup(child.pid!, 'SIGKILL');
    throw error;
  }
  return {
    output: () => output,
    bannerValue(label) {
      const line = output.split('\n').find((l) => l.trimStart().startsWith(label));
      if (!line) throw new Error(`no "${label}" line in the banner:\n${output}`);
      return line.trim().slice(label.length).trim().split(/\s+/)[0]!;
    },
    stop: async (signal = 'SIGINT') => {
      const started = Date.now();
      killGroup(child.pid!, signal);
      const exit = await exited;
      // npm may be gone before the servers it started: wait (bounded) for the whole group.
      while (groupAlive(child.pid!) && Date.now() - started < 30_000) {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const leftBehind = groupAlive(child.pid!);
      if (leftBehind) killGroup(child.pid!, 'SIGKILL');
      return { exit, ms: Date.now() - started, leftBehind };
    },
  };
}

function killGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // already gone
  }
}

function groupAlive(pid: number): boolean {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
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
