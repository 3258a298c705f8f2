import { useState } from 'react';

interface ActionOptions {
  /** Reloads the page's list after a change. */
  load: () => Promise<void>;
  fail: (error: unknown) => void;
  /** Runs as a change starts, e.g. to clear the previous error. */
  onStart?: () => void;
}

/** A change made from a page: busy while it runs; its answer becomes the status line, then the list reloads. */
export function useAction({ load, fail, onStart }: ActionOptions) {
  const [busy, setBusy] = useState(false);
  const [status, setStatus] = useState('');
  const act = async (work: () => Promise<string>) => {
    setBusy(true);
    onStart?.();
    try {
      setStatus(await work());
      await load();
    } catch (caught) {
      fail(caught);
    } finally {
      setBusy(false);
    }
  };
  return { busy, status, setStatus, act };
}
