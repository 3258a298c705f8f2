import { useState } from 'react';

interface ActionOptions {
  /** Reloads the page's list after a change. */
  load: () => Promise<void>;
  fail: (error: unknown) => void;
  /** Runs as a change starts, e.g. to clear the previous error. */
  onStart?: () => void;
  /** Clears the previous status line as a change starts. */
  clearStatus?: boolean;
}

/** A change made from a page: busy while it runs; its answer becomes the status line, then the list reloads. */
export function useAction({ load, fail, onStart, clearStatus }: ActionOptions) {
  const [busy, setBusy] = useState(false);
  const [status, setStatus] = useState('');
  const act = async (work: () => Promise<string>) => {
    setBusy(true);
    onStart?.();
    if (clearStatus) setStatus('');
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
