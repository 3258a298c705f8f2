import { resolveTestDatabaseServer } from '../scripts/test-database.ts';

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
  for (const [key, value] of Object.entries(rows)) {
    console.log(`  ${key.padEnd(44)} ${typeof value === 'number' ? value.toFixed(2) : value}`);
  }
}
