import { useCallback, useState } from 'react';
import type { Environment } from '../api.ts';
import { useLatestRequest } from './use-latest-request.ts';

/**
 * One environment's list from the API (null while loading) and its loader; a failure goes to `fail`.
 * `fetch` must keep its identity between renders (a module-level function). An answer for an environment left
 * while it was loading is dropped.
 */
export function useList<T>(
  fetch: (environment: Environment) => Promise<T[]>,
  environment: Environment,
  fail: (error: unknown) => void,
) {
  const [items, setItems] = useState<T[] | null>(null);
  const begin = useLatestRequest();
  const load = useCallback(async () => {
    const request = begin();
    try {
      const answer = await fetch(environment);
      if (request.isLatest()) setItems(answer);
    } catch (caught) {
      if (request.isLatest()) fail(caught);
    }
  }, [fetch, environment, fail, begin]);
  return { items, setItems, load };
}
