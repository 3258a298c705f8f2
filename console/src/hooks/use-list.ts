import { useCallback, useState } from 'react';
import type { Environment } from '../api.ts';

/**
 * One environment's list from the API (null while loading) and its loader; a failure goes to `fail`.
 * `fetch` must keep its identity between renders (a module-level function).
 */
export function useList<T>(
  fetch: (environment: Environment) => Promise<T[]>,
  environment: Environment,
  fail: (error: unknown) => void,
) {
  const [items, setItems] = useState<T[] | null>(null);
  const load = useCallback(async () => {
    try {
      setItems(await fetch(environment));
    } catch (caught) {
      fail(caught);
    }
  }, [fetch, environment, fail]);
  return { items, setItems, load };
}
