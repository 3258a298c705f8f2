import { useEffect, useRef, useState } from 'react';

/**
 * Calls `tick` every `everyMs` while `on` and the tab is visible (a hidden tab polls nothing; shown again, it
 * polls again). Returns whether it is polling now, for the page's "live" indicator.
 */
export function usePolling(tick: () => Promise<void> | void, everyMs: number, on: boolean): boolean {
  const latest = useRef(tick);
  latest.current = tick;
  const [visible, setVisible] = useState(() => document.visibilityState === 'visible');
  useEffect(() => {
    const onChange = () => setVisible(document.visibilityState === 'visible');
    document.addEventListener('visibilitychange', onChange);
    return () => document.removeEventListener('visibilitychange', onChange);
  }, []);
  const polling = on && visible;
  useEffect(() => {
    if (!polling) return;
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const run = async () => {
      try {
        await latest.current();
      } finally {
        if (!stopped) timer = setTimeout(run, everyMs);
      }
    };
    timer = setTimeout(run, everyMs);
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [polling, everyMs]);
  return polling;
}
