import type { EntityManager } from '@mikro-orm/postgresql';

const BATCH = 500;

/** Runs `work` in one read-only, repeatable-read transaction: every table of an export from one snapshot. */
export function inSnapshot<T>(em: EntityManager, work: (tx: EntityManager) => Promise<T>): Promise<T> {
  return em.fork().transactional(async (tx) => {
    await tx.execute('set transaction read only, isolation level repeatable read');
    return work(tx);
  });
}

/**
 * The rows of one statement as JSON text (`row_to_json`), `BATCH` at a time through a server-side cursor of
 * the transaction `tx`: memory stays flat whatever the number of rows.
 */
export async function eachRow(
  tx: EntityManager,
  sql: string,
  params: unknown[],
  onBatch: (rows: string[]) => Promise<void>,
): Promise<number> {
  let count = 0;
  await tx.execute(
    `declare exit_rows no scroll cursor for select row_to_json(t)::text as row from (${sql}) t`,
    params,
  );
  try {
    for (;;) {
      const rows = await tx.execute<{ row: string }[]>(`fetch ${BATCH} from exit_rows`);
      if (rows.length === 0) break;
      count += rows.length;
      await onBatch(rows.map((r) => r.row));
    }
  } finally {
    await tx.execute('close exit_rows');
  }
  return count;
}
