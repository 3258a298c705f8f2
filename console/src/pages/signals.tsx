import '../signals.css';
import { type FormEvent, useCallback, useEffect, useState } from 'react';
import type { Environment, SessionUser } from '../api.ts';
import { ErrorAlert } from '../components/error-alert.tsx';
import { LiveStatus } from '../components/live-status.tsx';
import { useFailure } from '../hooks/use-failure.ts';
import { useLatestRequest } from '../hooks/use-latest-request.ts';
import { usePageHeading } from '../hooks/use-page-heading.ts';
import { linkHandler } from '../router.ts';
import { EVIDENCE_LABELS, SIGNAL_LABELS, type Signal, type SignalSettings, signals } from '../signals-api.ts';

interface SignalsProps {
  user: SessionUser;
  environment: Environment;
  onSessionEnded: (error: unknown) => boolean;
}

const when = (iso: unknown) =>
  typeof iso === 'string' && !Number.isNaN(Date.parse(iso))
    ? new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' })
    : String(iso);

/** The evidence as label/value pairs a person reads without the docs. */
function Evidence({ evidence }: { evidence: Record<string, unknown> }) {
  return (
    <dl className="evidence">
      {Object.entries(evidence).map(([name, value]) => (
        <div key={name}>
          <dt>{EVIDENCE_LABELS[name] ?? name}</dt>
          <dd>
            {/At$|^since$/.test(name)
              ? when(value)
              : typeof value === 'object'
                ? JSON.stringify(value)
                : String(value)}
          </dd>
        </div>
      ))}
    </dl>
  );
}

function Thresholds({
  environment,
  mayManage,
  fail,
}: {
  environment: Environment;
  mayManage: boolean;
  fail: (e: unknown) => void;
}) {
  const [settings, setSettings] = useState<SignalSettings | null>(null);
  const [saved, setSaved] = useState('');
  useEffect(() => {
    signals.settings(environment).then(setSettings, fail);
  }, [environment, fail]);
  if (!settings) return <p role="status">Loading the thresholds…</p>;
  const save = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const number = (name: string) => Number(data.get(name));
    try {
      const next = await signals.saveSettings(environment, {
        reopenThreshold: number('reopenThreshold'),
        counterJumpThreshold: number('counterJumpThreshold'),
        burstTaps: number('burstTaps'),
        burstWindowSeconds: number('burstWindowMinutes') * 60,
      });
      setSettings(next);
      setSaved('Thresholds saved: they apply to the next taps.');
    } catch (caught) {
      fail(caught);
    }
  };
  const field = (name: string, label: string, value: number, min: number) => (
    <div className="field">
      <label htmlFor={`threshold-${name}`}>{label}</label>
      <input
        id={`threshold-${name}`}
        name={name}
        type="number"
        min={min}
        required
        defaultValue={value}
        disabled={!mayManage}
      />
    </div>
  );
  return (
    <section aria-labelledby="thresholds-heading">
      <h2 id="thresholds-heading">Thresholds</h2>
      <p className="hint">
        For the whole company, both environments. A signal is raised once per occurrence.
      </p>
      <LiveStatus status={saved} className="success" />
      <form
        className="inline-form"
        onSubmit={(event) => void save(event)}
        aria-labelledby="thresholds-heading"
      >
        {field('reopenThreshold', 'Openings of one used tag link', settings.reopenThreshold, 2)}
        {field('counterJumpThreshold', 'Counter jump larger than', settings.counterJumpThreshold, 1)}
        {field('burstTaps', 'Taps of one chip in a burst', settings.burstTaps, 2)}
        {field(
          'burstWindowMinutes',
          'Burst window (minutes)',
          Math.round(settings.burstWindowSeconds / 60),
          1,
        )}
        {mayManage ? <button type="submit">Save thresholds</button> : null}
      </form>
    </section>
  );
}

/** Signals: what the chips' taps tell the brand, with the evidence, and a way to mark one resolved. */
export function Signals({ user, environment, onSessionEnded }: SignalsProps) {
  const { error, setError, fail } = useFailure(onSessionEnded);
  const heading = usePageHeading('Signals');
  const [status, setStatus] = useState<'open' | 'resolved' | 'all'>('open');
  const [items, setItems] = useState<Signal[] | null>(null);
  const [done, setDone] = useState('');
  const mayManage = user.role !== 'viewer';
  const begin = useLatestRequest();
  const load = useCallback(async () => {
    const request = begin();
    try {
      const answer = await signals.list(environment, status);
      if (!request.isLatest()) return;
      setItems(answer.signals);
      setError(null);
    } catch (caught) {
      if (request.isLatest()) fail(caught);
    }
  }, [environment, status, fail, setError, begin]);
  useEffect(() => {
    setItems(null);
    void load();
  }, [load]);
  const resolve = async (signal: Signal) => {
    try {
      await signals.resolve(environment, signal.id);
      setDone(`${SIGNAL_LABELS[signal.type]} on chip ${signal.chipUid} marked resolved.`);
      await load();
    } catch (caught) {
      fail(caught);
    }
  };
  return (
    <section aria-labelledby="signals-heading">
      <h1 id="signals-heading" ref={heading} tabIndex={-1}>
        Signals
      </h1>
      <p className="lede">
        What your chips’ taps tell you about possible counterfeits: a copied tag link opened again, a counter
        that jumped, a product tapped after it was recycled or revoked, an open tamper loop, bursts of checks,
        a chip UID another account tried to enroll. Each also goes to your webhooks as
        asset.suspicious_activity.
      </p>
      <ErrorAlert error={error} />
      <LiveStatus status={done} className="success" />
      <div className="field">
        <label htmlFor="signal-status">Show</label>
        <select
          id="signal-status"
          value={status}
          onChange={(event) => setStatus(event.target.value as typeof status)}
        >
          <option value="open">Open signals</option>
          <option value="resolved">Resolved signals</option>
          <option value="all">All signals</option>
        </select>
      </div>
      {items === null ? (
        <p role="status">Loading signals…</p>
      ) : items.length === 0 ? (
        <p>
          No {status === 'all' ? '' : `${status} `}signals in {environment}.
        </p>
      ) : (
        <ul className="signal-list" aria-label={`Signals in ${environment}`}>
          {items.map((signal) => (
            <li key={signal.id} className={`signal signal--${signal.severity}`}>
              <h2>
                {SIGNAL_LABELS[signal.type]} <span className="badge">{signal.severity}</span>
              </h2>
              <p>
                Chip {signal.chipUid}
                {signal.tokenId ? (
                  <>
                    {', passport '}
                    <a
                      href={`/console/passports/${signal.tokenId}`}
                      onClick={linkHandler(`/passports/${signal.tokenId}`)}
                    >
                      {signal.tokenId}
                    </a>
                  </>
                ) : null}
                {`, raised ${when(signal.raisedAt)}`}
                {signal.resolved ? `, resolved by ${signal.resolvedBy} ${when(signal.resolvedAt)}` : ''}.
              </p>
              <Evidence evidence={signal.evidence} />
              {mayManage && !signal.resolved ? (
                <button type="button" className="secondary" onClick={() => void resolve(signal)}>
                  Mark resolved
                </button>
              ) : null}
            </li>
          ))}
        </ul>
      )}
      <Thresholds environment={environment} mayManage={mayManage} fail={fail} />
    </section>
  );
}
