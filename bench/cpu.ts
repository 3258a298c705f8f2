import { readdirSync, readFileSync } from 'node:fs';

const CLOCK_TICK_MS = 10; // USER_HZ is 100 on Linux

/** user + system CPU of one /proc stat file, in ms. */
function statCpuMs(path: string): { name: string; ms: number } | undefined {
  try {
    const raw = readFileSync(path, 'utf8');
    const fields = raw.slice(raw.lastIndexOf(')') + 2).split(' ');
    return {
      name: raw.slice(raw.indexOf('(') + 1, raw.lastIndexOf(')')),
      ms: (Number(fields[11]) + Number(fields[12])) * CLOCK_TICK_MS,
    };
  } catch {
    return undefined; // gone in between
  }
}

/** Processes a mint crosses, by what they are (Linux /proc; empty elsewhere). */
function processRole(pid: string): string | undefined {
  if (Number(pid) === process.pid) return 'this process';
  let command: string;
  try {
    command = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
  } catch {
    return undefined;
  }
  if (command.includes('start-dev') || command.includes('io.temporal.testserver')) return 'Temporal server';
  if (command.includes('worker/main.ts')) return 'worker process';
  if (command.includes('anvil')) return 'anvil';
  if (command.startsWith('postgres')) return 'PostgreSQL';
  return undefined;
}

export type CpuSample = Record<string, number>;

/** CPU used so far by the processes of a benchmark, by role. */
export function sampleProcesses(): CpuSample {
  const sample: CpuSample = {};
  let pids: string[] = [];
  try {
    pids = readdirSync('/proc').filter((entry) => /^\d+$/.test(entry));
  } catch {
    return sample;
  }
  for (const pid of pids) {
    const role = processRole(pid);
    const cpu = role && statCpuMs(`/proc/${pid}/stat`);
    if (role && cpu) sample[role] = (sample[role] ?? 0) + cpu.ms;
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
    const cpu = statCpuMs(`/proc/${pid}/task/${tid}/stat`);
    if (cpu) sample[cpu.name] = (sample[cpu.name] ?? 0) + cpu.ms;
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
