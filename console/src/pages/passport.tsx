import { type FormEvent, useCallback, useEffect, useState } from 'react';
import { ApiError, type Environment, type SessionUser } from '../api.ts';
import { CompletenessPanel } from '../components/completeness-panel.tsx';
import { ErrorAlert } from '../components/error-alert.tsx';
import { ItemLevelLinks } from '../components/item-level-links.tsx';
import { LiveStatus } from '../components/live-status.tsx';
import { OwnerWalletFact } from '../components/owner-wallet.tsx';
import { PassportRecords } from '../components/passport-records.tsx';
import { StatusBadge } from '../components/status-badge.tsx';
import { useFailure } from '../hooks/use-failure.ts';
import { usePageHeading } from '../hooks/use-page-heading.ts';
import { type PassportDetails, passports, type TimelineEntry } from '../passports-api.ts';
import { useRight } from '../rights.tsx';
import { BASE, linkHandler } from '../router.ts';
import { authoring, type Completeness } from './authoring/authoring-api.ts';
import { ProductFacts } from './authoring/product-facts.tsx';

interface PassportProps {
  tokenId: string;
  user: SessionUser;
  environment: Environment;
  onSessionEnded: (error: unknown) => boolean;
}

const dateTime = new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeStyle: 'medium' });
const when = (iso: string) => dateTime.format(new Date(iso));
const ACTIONS: Record<string, string> = { MINT: 'Minted', REVOKED: 'Credential revoked' };
const actionText = (action: string) =>
  ACTIONS[action] ?? action.charAt(0) + action.slice(1).toLowerCase().replaceAll('_', ' ');

/** The credential from this origin (the API serves the resolver too), so the browser downloads it. */
const sameOrigin = (url: string) => {
  const parsed = new URL(url);
  return `${parsed.pathname}${parsed.search}`;
};

function TimelineItem({ entry }: { entry: TimelineEntry }) {
  return (
    <li>
      <p className="timeline-title">
        <strong>{actionText(entry.action)}</strong> <time dateTime={entry.at}>{when(entry.at)}</time>
        {entry.locationName ? ` · ${entry.locationName}` : ''}
      </p>
      {entry.transactionHash ? (
        <p className="hint">
          Transaction <code className="wrap">{entry.transactionHash}</code>
          {entry.blockNumber !== null ? ` in block ${entry.blockNumber}` : ''}
        </p>
      ) : entry.kind === 'revoked' ? (
        <p className="hint">Reason: {entry.reason ?? '—'} (status list, not a chain transaction)</p>
      ) : (
        <p className="hint">Being anchored on chain…</p>
      )}
    </li>
  );
}

/** One passport: facts, on-chain timeline, taps, credential download, public page, revoke. */
export function Passport({ tokenId, user, environment, onSessionEnded }: PassportProps) {
  const { error, setError, fail } = useFailure(onSessionEnded);
  const heading = usePageHeading(`Passport ${tokenId}`);
  const [passport, setPassport] = useState<PassportDetails | null | 'missing'>(null);
  const [confirming, setConfirming] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [status, setStatus] = useState('');
  // What the passport holds (its EN 18222 document) and still lacks: read after the overview names its dppId.
  const [document, setDocument] = useState<Record<string, unknown> | null>(null);
  const [completeness, setCompleteness] = useState<Completeness | null>(null);
  const mayRevoke = useRight('managePassports');

  const load = useCallback(async () => {
    try {
      const { passport: found } = await passports.get(environment, tokenId);
      setPassport(found);
      const [read, lacking] = await Promise.all([
        authoring.document(environment, found.digitalProductPassportId),
        authoring.completeness(environment, found.digitalProductPassportId),
      ]);
      setDocument(read);
      setCompleteness(lacking);
    } catch (caught) {
      if (caught instanceof ApiError && (caught.status === 404 || caught.status === 400)) {
        setPassport('missing');
      } else fail(caught);
    }
  }, [environment, tokenId, fail]);
  useEffect(() => {
    setPassport(null);
    setError(null);
    void load();
  }, [load, setError]);

  const ask = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setConfirming(String(new FormData(event.currentTarget).get('reason')).trim());
  };
  const revoke = async (reason: string) => {
    setBusy(true);
    setError(null);
    try {
      await passports.revoke(environment, tokenId, reason);
      setConfirming(null);
      setStatus(`Passport ${tokenId} revoked: verifiers now see its credential as revoked.`);
      await load();
    } catch (caught) {
      fail(caught);
    } finally {
      setBusy(false);
    }
  };

  const back = (
    <p>
      <a href={`${BASE}/passports`} onClick={linkHandler('/passports')}>
        ← All passports
      </a>
    </p>
  );
  return (
    <section aria-labelledby="passport-heading">
      {back}
      <h1 id="passport-heading" ref={heading} tabIndex={-1}>
        Passport {tokenId}
      </h1>
      <LiveStatus status={status} className="success" />
      <ErrorAlert error={error} />
      {passport === null ? (
        <p role="status">Loading the passport…</p>
      ) : passport === 'missing' ? (
        <p className="notice">
          No passport {tokenId} in the {environment} environment of your company.
        </p>
      ) : (
        <>
          <p className="lede">
            {passport.name ?? 'Unnamed product'} · <StatusBadge status={passport.status} />
            {passport.revokedAt
              ? ` since ${when(passport.revokedAt)}${passport.revocationReason ? ` (${passport.revocationReason})` : ''}`
              : ''}
          </p>
          <div className="passport-links">
            <a href={passport.links.publicPage} target="_blank" rel="noopener noreferrer">
              Open the public page
            </a>
            <a href={sameOrigin(passport.links.credential)} download={`passport-${passport.tokenId}.vc.json`}>
              Download the credential
            </a>
            {mayRevoke ? (
              <a
                href={`${BASE}/settings/transfers?tokenId=${passport.tokenId}`}
                onClick={linkHandler(`/settings/transfers?tokenId=${passport.tokenId}`)}
              >
                Hand over to another operator
              </a>
            ) : null}
          </div>

          <h2>Facts</h2>
          <dl className="facts">
            <dt>Token ID</dt>
            <dd>{passport.tokenId}</dd>
            <dt>Chip UID</dt>
            <dd>
              <code>{passport.chipUid}</code>
            </dd>
            <dt>GTIN</dt>
            <dd>{passport.gtin ?? '—'}</dd>
            <dt>Batch</dt>
            <dd>{passport.batch ?? '—'}</dd>
            <dt>Product ID</dt>
            <dd>{passport.productId ?? '—'}</dd>
            {document ? <ProductFacts document={document} companyName={user.companyName} /> : null}
            {document ? (
              <ItemLevelLinks document={document} gtin={passport.gtin} batch={passport.batch} />
            ) : null}
            <dt>Minted</dt>
            <dd>{when(passport.mintedAt)}</dd>
            <dt>Verified taps</dt>
            <dd>
              {passport.taps.count}
              {passport.taps.lastAt ? ` (last ${when(passport.taps.lastAt)})` : ''}
            </dd>
            <dt>Contract</dt>
            <dd>
              <code className="wrap">{passport.contractAddress}</code>
            </dd>
            <OwnerWalletFact owner={passport.owner} />
            <dt>Digital Link</dt>
            <dd>
              <code className="wrap">{passport.links.digitalLink}</code>
            </dd>
          </dl>

          <CompletenessPanel
            completeness={completeness}
            authoringPath={`/authoring/${passport.digitalProductPassportId}`}
            onAuthoringPage={false}
          />

          <PassportRecords
            dppId={passport.digitalProductPassportId}
            fileName={`passport-${passport.tokenId}`}
            environment={environment}
            mayRetry={mayRevoke}
            onFail={fail}
          />

          <h2>Timeline</h2>
          <ol className="timeline" aria-label="Timeline, oldest first">
            {passport.timeline.map((entry) => (
              <TimelineItem key={`${entry.kind}-${entry.at}-${entry.transactionHash}`} entry={entry} />
            ))}
          </ol>

          <h2>Revoke</h2>
          {passport.status !== 'ACTIVE' ? (
            <p>This passport’s credential is no longer valid ({passport.status.toLowerCase()}).</p>
          ) : !mayRevoke ? (
            <p className="notice">
              Your role is <strong>{user.role}</strong>: you can see this passport, but only an owner or a
              developer can revoke it.
            </p>
          ) : confirming === null ? (
            <form className="inline-form" onSubmit={ask}>
              <label htmlFor="revoke-reason">Reason (shown on the public page)</label>
              <input
                id="revoke-reason"
                name="reason"
                required
                maxLength={500}
                placeholder="e.g. Withdrawn from sale"
              />
              <button type="submit" className="secondary">
                Revoke passport
              </button>
            </form>
          ) : (
            <div className="card confirm">
              <p>
                Revoke passport {tokenId} because “{confirming}”? Revoking is final: verifiers see the
                credential as revoked at once.
              </p>
              <div className="actions">
                <button type="button" className="danger" disabled={busy} onClick={() => revoke(confirming)}>
                  Confirm revoking passport {tokenId}
                </button>
                <button type="button" className="secondary" onClick={() => setConfirming(null)}>
                  Cancel
                </button>
              </div>
            </div>
          )}
        </>
      )}
    </section>
  );
}
