import { resolveTestDatabaseServer } from '../scripts/test-database.ts';
import { collected } from './report/figures.ts';

/** Points the test helpers at a PostgreSQL server exactly as `npm test` does, for the benchmarks. */
export async function prepareBenchDatabase(): Promise<() => Promise<void>> {
  const { adminUrl, embedded } = await resolveTestDatabaseServer(() => {});
  process.env.TEST_DATABASE_URL = adminUrl;
  process.env.LOG_LEVEL ??= 'silent';
  return async () => {
    await embedded?.stop();
  };
}

export function rate(count: number, ms: number): number {
  return (count * 1000) / ms;
}

export function report(name: string, rows: Record<string, string | number>): void {
  console.log(`\n${name}`);
  const shown = Object.entries(rows).map(
    ([key, value]) => [key, typeof value === 'number' ? value.toFixed(2) : value] as [string, string],
  );
  for (const [key, value] of shown) console.log(`  ${key.padEnd(44)} ${value}`);
  collected.tables.push({ title: name, rows: shown });
}

/**
 * Runs `work`; with BENCH_CPU_PROFILE=<dir>, records a CPU profile of this process's main thread for
 * exactly that phase (open it in Chrome DevTools or speedscope) and says where it went.
 */
export async function measuredPhase<T>(name: string, work: () => Promise<T>): Promise<T> {
  const dir = process.env.BENCH_CPU_PROFILE;
  if (!dir) return work();
  const { Session } = await import('node:inspector/promises');
  const { mkdir, writeFile } = await import('node:fs/promises');
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  try {
    return await work();
  } finally {
    const { profile } = await session.post('Profiler.stop');
    session.disconnect();
    await mkdir(dir, { recursive: true });
    const file = `${dir}/${name}.cpuprofile`;
    await writeFile(file, JSON.stringify(profile));
    console.log(`  cpu profile of ${name}: ${file}`);
  }
}
