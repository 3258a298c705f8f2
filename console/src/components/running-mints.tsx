import { useCallback, useEffect, useState } from 'react';
import type { Environment } from '../api.ts';
import { passports, type RunningMint } from '../passports-api.ts';
import { BASE } from '../router.ts';

const dateTime = new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeStyle: 'medium' });

interface RunningMintsProps {
  environment: Environment;
  /** Opens a chip's search (its mint's progress when it has no passport yet). */
  onOpen: (chipUid: string) => void;
  onFail: (error: unknown) => void;
}

/** The mints under way (nothing when there are none), those needing an operator marked; Refresh asks again. */
export function RunningMints({ environment, onOpen, onFail }: RunningMintsProps) {
  const [running, setRunning] = useState<{ mints: RunningMint[]; more: boolean } | null>(null);
  const load = useCallback(async () => {
    try {
      setRunning(await passports.running(environment));
    } catch (caught) {
      onFail(caught);
    }
  }, [environment, onFail]);
  useEffect(() => {
    void load();
  }, [load]);
  if (running === null || running.mints.length === 0) return null;
  const stuck = running.mints.filter((mint) => mint.attention !== null).length;
  return (
    <section className="card mint" aria-labelledby="running-heading">
      <h2 id="running-heading">Mints under way</h2>
      <p>
        {running.mints.length}
        {running.more ? '+' : ''} {running.mints.length === 1 ? 'mint' : 'mints'} running
        {stuck > 0 ? `, ${stuck} needing an operator’s attention` : ''}.
      </p>
      <ul className="running-mints">
        {running.mints.map((mint) => (
          <li key={mint.workflowId}>
            <a
              href={`${BASE}/passports?chipUid=${mint.chipUid}`}
              onClick={(event) => {
                if (event.metaKey || event.ctrlKey || event.shiftKey) return;
                event.preventDefault();
                onOpen(mint.chipUid);
              }}
            >
              Chip {mint.chipUid}
            </a>{' '}
            <span className="hint">started {dateTime.format(new Date(mint.startedAt))}</span>
            {mint.attention ? <span className="badge badge-revoked">Needs attention</span> : null}
          </li>
        ))}
      </ul>
      <button type="button" className="secondary" onClick={() => void load()}>
        Refresh
      </button>
    </section>
  );
}
