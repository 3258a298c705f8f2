import { useCallback, useRef } from 'react';

/**
 * For a list whose filter can change while its answer is on the way: each load calls `begin()` and keeps its
 * answer only if `isLatest()` still holds, so an older, slower answer never replaces the newer filter's list.
 */
export function useLatestRequest(): () => { isLatest: () => boolean } {
  const latest = useRef(0);
  return useCallback(() => {
    const mine = ++latest.current;
    return { isLatest: () => mine === latest.current };
  }, []);
}
