import { readdirSync, readFileSync } from 'node:fs';

const CLOCK_TICK_MS = 10; // USER_HZ is 100 on Linux

interface Stat {
  name: string;
  parent: number;
  /** user + system CPU, in ms */
  ms: number;
}

/** One /proc stat file (a process's or a thread's). */
function readStat(path: string): Stat | undefined {
  try {
    const raw = readFileSync(path, 'utf8');
    // After "pid (name) ": state, ppid, … utime (14th field of the file), stime (15th).
    const fields = raw.slice(raw.lastIndexOf(')') + 2).split(' ');
    return {
      name: raw.slice(raw.indexOf('(') + 1, raw.lastIndexOf(')')),
      parent: Number(fields[1]),
      ms: (Number(fields[11]) + Number(fields[12])) * CLOCK_TICK_MS,
    };
  } catch {
    return undefined; // gone in between
  }
}

/**
 * This process and every process it started, directly or not (the servers a bench starts: PostgreSQL's
 * postmaster and its backends, the Temporal server, anvil, worker processes), with their stats. Other stacks on a
 * shared machine run the same programs; only the tree tells ours apart.
 */
function ownProcesses(): Map<number, Stat> {
  const stats = new Map<number, Stat>();
  let entries: string[] = [];
  try {
    entries = readdirSync('/proc').filter((entry) => /^\d+$/.test(entry));
  } catch {
    return stats;
  }
  const children = new Map<number, number[]>();
  for (const entry of entries) {
    const stat = readStat(`/proc/${entry}/stat`);
    if (!stat) continue;
    const pid = Number(entry);
    stats.set(pid, stat);
    children.set(stat.parent, [...(children.get(stat.parent) ?? []), pid]);
  }
  const own = new Map<number, Stat>();
  const pending = [process.pid];
  for (let pid = pending.pop(); pid !== undefined; pid = pending.pop()) {
    const stat = stats.get(pid);
    if (!stat || own.has(pid)) continue;
    own.set(pid, stat);
    pending.push(...(children.get(pid) ?? []));
  }
  return own;
}

/** What one of the bench's own processes is, by its program. */
function processRole(pid: number, name: string): string | undefined {
  if (pid === process.pid) return 'this process';
  if (name === 'postgres') return 'PostgreSQL';
  if (name === 'anvil') return 'anvil';
  let command: string;
  try {
    command = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
  } catch {
    return undefined;
  }
  if (command.includes('start-dev') || command.includes('io.temporal.testserver')) return 'Temporal server';
  if (command.includes('worker/main.ts')) return 'worker process';
  return undefined;
}

export type CpuSample = Record<string, number>;

/**
 * CPU used so far by the processes of this benchmark (this process's tree), by role. With a PostgreSQL server
 * this process did not start (TEST_DATABASE_URL), its backends are not in the tree and are not counted.
 */
export function sampleProcesses(): CpuSample {
  const sample: CpuSample = {};
  for (const [pid, stat] of ownProcesses()) {
    const role = processRole(pid, stat.name);
    if (role) sample[role] = (sample[role] ?? 0) + stat.ms;
  }
  return sample;
}

/** CPU used so far by a process's threads, by thread name (main thread, workflow threads, tokio, …). */
export function sampleThreads(pid: number = process.pid): CpuSample {
  const sample: CpuSample = {};
  let tids: string[] = [];
  try {
    tids = readdirSync(`/proc/${pid}/task`);
  } catch {
    return sample;
  }
  for (const tid of tids) {
    const stat = readStat(`/proc/${pid}/task/${tid}/stat`);
    if (stat) sample[stat.name] = (sample[stat.name] ?? 0) + stat.ms;
  }
  return sample;
}

/** "role 12.3, other 4.5" in ms per operation, largest first, leaving out what used (almost) nothing. */
export function cpuPerOperation(before: CpuSample, after: CpuSample, operations: number): string {
  return Object.entries(after)
    .map(([key, ms]) => [key, (ms - (before[key] ?? 0)) / operations] as const)
    .filter(([, ms]) => ms >= 0.1)
    .sort((a, b) => b[1] - a[1])
    .map(([key, ms]) => `${key} ${ms.toFixed(1)}`)
    .join(', ');
}
