import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';

const current = new AsyncLocalStorage<string>();

/**
 * Runs `work` with `key` as the business operation key of the chain writes it makes: the transaction manager
 * sends at most one transaction per key (a retried Temporal activity passes the same key and finds the
 * transaction its earlier attempt stored, whatever became of its hash since).
 */
export function withOperationKey<T>(key: string, work: () => Promise<T>): Promise<T> {
  return current.run(key, work);
}

/** The key set by `withOperationKey`, or a fresh one (a write outside any operation is never deduplicated). */
export function operationKey(explicit?: string): string {
  return explicit ?? current.getStore() ?? `adhoc:${randomUUID()}`;
}
