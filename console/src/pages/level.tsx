import { useCallback, useEffect, useState } from 'react';
import { ApiError, type Environment } from '../api.ts';
import { CompletenessPanel } from '../components/completeness-panel.tsx';
import { CopyableValue } from '../components/copy-button.tsx';
import { ErrorAlert } from '../components/error-alert.tsx';
import { PassportRecords } from '../components/passport-records.tsx';
import { ProductDataView } from '../components/product-data-view.tsx';
import { StatusBadge } from '../components/status-badge.tsx';
import { useFailure } from '../hooks/use-failure.ts';
import { usePageHeading } from '../hooks/use-page-heading.ts';
import { type LevelGranularity, levelName, levels, type VersionSummary } from '../levels-api.ts';
import { type PassportRow, passports } from '../passports-api.ts';
import { NotAllowed, useRight } from '../rights.tsx';
import { BASE, linkHandler } from '../router.ts';
import { authoring, type Completeness } from './authoring/authoring-api.ts';
import '../components/records.css';

interface LevelProps {
  dppId: string;
  environment: Environment;
  onSessionEnded: (error: unknown) => boolean;
}

type Json = Record<string, unknown>;

interface Loaded {
  document: Json;
  granularity: LevelGranularity;
  gtin: string;
  lot: string | null;
  versions: VersionSummary[];
  items: { passports: PassportRow[]; more: boolean };
  completeness: Completeness;
  /** Specification id → its title ("EU battery passport …"). */
  titles: Record<string, string>;
}

const date = new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeStyle: 'medium' });
const when = (iso: string) => date.format(new Date(iso));
const ITEMS_SHOWN = 25;

/** The GTIN (and lot) in a level's Digital Link: …/01/{gtin} or …/01/{gtin}/10/{lot}. */
function keyOf(link: string): { gtin: string; lot: string | null } {
  const match = /\/01\/(\d{14})(?:\/10\/([^/?#]+))?/.exec(link);
  return { gtin: match?.[1] ?? '', lot: match?.[2] ? decodeURIComponent(match[2]) : null };
}

/**
 * A model or batch passport (docs/granularity.md): what it states (its product data), its versions, the items
 * that inherit from it, its registry, backup and evidence; "Edit product data" opens the authoring form.
 */
export function Level({ dppId, environment, onSessionEnded }: LevelProps) {
  const { error, setError, fail } = useFailure(onSessionEnded);
  const [loaded, setLoaded] = useState<Loaded | null | 'missing'>(null);
  const heading = usePageHeading(
    loaded && loaded !== 'missing' ? `${levelName(loaded)} passport` : 'Model or batch passport',
  );

  const load = useCallback(async () => {
    try {
      const document = await authoring.document(environment, dppId);
      const granularity = document.granularity;
      if (granularity !== 'model' && granularity !== 'batch') {
        setLoaded('missing');
        return;
      }
      const { gtin, lot } = keyOf(String(document.uniqueProductIdentifier ?? ''));
      const [versions, items, completeness, specifications] = await Promise.all([
        levels.versions(environment, dppId),
        passports.search(environment, { gtin, ...(lot ? { batch: lot } : {}) }, null),
        authoring.completeness(environment, dppId),
        authoring.specifications(environment),
      ]);
      setLoaded({
        document,
        granularity,
        gtin,
        lot,
        versions: versions.items,
        items: { passports: items.passports.slice(0, ITEMS_SHOWN), more: items.nextCursor !== null },
        completeness,
        titles: Object.fromEntries(specifications.map((spec) => [spec.id, spec.title])),
      });
    } catch (caught) {
      if (caught instanceof ApiError && (caught.status === 404 || caught.status === 400))
        setLoaded('missing');
      else fail(caught);
    }
  }, [environment, dppId, fail]);
  useEffect(() => {
    setLoaded(null);
    setError(null);
    void load();
  }, [load, setError]);

  const kind = loaded && loaded !== 'missing' ? loaded.granularity : null;
  const listPath = `/passports?level=${kind === 'batch' ? 'batches' : 'models'}`;
  return (
    <section aria-labelledby="level-heading">
      <p>
        <a href={`${BASE}${listPath}`} onClick={linkHandler(listPath)}>
          ← All {kind ?? 'model'} passports
        </a>
      </p>
      <h1 id="level-heading" ref={heading} tabIndex={-1}>
        {loaded && loaded !== 'missing' ? `${levelName(loaded)}` : 'Model or batch passport'}
      </h1>
      <ErrorAlert error={error} />
      {loaded === null ? (
        <p role="status">Loading the passport…</p>
      ) : loaded === 'missing' ? (
        <p className="notice">
          No model or batch passport {dppId} in the {environment} environment of your company.
        </p>
      ) : (
        <LevelBody loaded={loaded} dppId={dppId} environment={environment} onFail={fail} />
      )}
    </section>
  );
}

function LevelBody({
  loaded,
  dppId,
  environment,
  onFail,
}: {
  loaded: Loaded;
  dppId: string;
  environment: Environment;
  onFail: (caught: unknown) => void;
}) {
  const { document, granularity, gtin, lot } = loaded;
  const mayEdit = useRight('managePassports');
  const sections = ((document.contentSpecificationIds as string[] | undefined) ?? []).filter(
    (id) => typeof document[id] === 'object',
  );
  const authoringPath = `/authoring/${encodeURIComponent(dppId)}`;
  const itemsPath = `/passports?gtin=${gtin}${lot ? `&batch=${encodeURIComponent(lot)}` : ''}`;
  const status = String(document.dppStatus ?? '');
  return (
    <>
      <p className="lede">
        {granularity === 'model' ? 'Model passport' : 'Batch passport'} ·{' '}
        <StatusBadge status={status.toUpperCase()} /> · every item of GTIN {gtin}
        {lot ? ` and batch ${lot}` : ''} inherits what it states; what an item states itself wins.
      </p>
      <h2>Facts</h2>
      <dl className="facts">
        <dt>Passport id</dt>
        <dd>
          <CopyableValue value={dppId} label="passport id" />
        </dd>
        <dt>GTIN</dt>
        <dd>{gtin}</dd>
        {lot ? (
          <>
            <dt>Batch</dt>
            <dd>{lot}</dd>
          </>
        ) : null}
        <dt>Digital Link</dt>
        <dd>
          <code className="wrap">{String(document.uniqueProductIdentifier)}</code>
        </dd>
        <dt>Last changed</dt>
        <dd>{document.lastUpdated ? when(String(document.lastUpdated)) : '—'}</dd>
        <dt>Economic operator</dt>
        <dd>{String(document.economicOperatorId ?? 'Not set (company settings)')}</dd>
      </dl>

      <h2>Product data</h2>
      {sections.length === 0 ? (
        <p>None written yet.</p>
      ) : (
        sections.map((id) => (
          <div className="card" key={id}>
            <h3>{loaded.titles[id] ?? id}</h3>
            <ProductDataView value={document[id]} />
          </div>
        ))
      )}
      {mayEdit ? (
        <p>
          <a className="button" href={`${BASE}${authoringPath}`} onClick={linkHandler(authoringPath)}>
            Edit product data
          </a>
        </p>
      ) : (
        <NotAllowed action="edit product data" className="hint" />
      )}
      <CompletenessPanel
        completeness={loaded.completeness}
        authoringPath={authoringPath}
        onAuthoringPage={false}
      />

      <h2>Items that inherit from it</h2>
      {loaded.items.passports.length === 0 ? (
        <p>
          No item passport of GTIN {gtin}
          {lot ? ` with batch ${lot}` : ''} yet: items minted with {lot ? 'them' : 'it'} inherit this
          passport.
        </p>
      ) : (
        <>
          <ul aria-label="Item passports">
            {loaded.items.passports.map((item) => (
              <li key={item.tokenId}>
                <a
                  href={`${BASE}/passports/${item.tokenId}`}
                  onClick={linkHandler(`/passports/${item.tokenId}`)}
                >
                  Passport {item.tokenId}
                </a>
                {item.name ? ` · ${item.name}` : ''}
                {item.batch && !lot ? ` · batch ${item.batch}` : ''}
              </li>
            ))}
          </ul>
          {loaded.items.more ? (
            <p>
              <a href={`${BASE}${itemsPath}`} onClick={linkHandler(itemsPath)}>
                All items of GTIN {gtin}
                {lot ? ` and batch ${lot}` : ''}
              </a>
            </p>
          ) : null}
        </>
      )}

      <h2>Versions</h2>
      <table className="keys">
        <caption className="visually-hidden">Versions, oldest first</caption>
        <thead>
          <tr>
            <th scope="col">Version</th>
            <th scope="col">Recorded</th>
            <th scope="col">On chain</th>
          </tr>
        </thead>
        <tbody>
          {loaded.versions.map((version) => (
            <tr key={version.number}>
              <td data-label="Version">{version.number}</td>
              <td data-label="Recorded">{when(version.createdAt)}</td>
              <td data-label="On chain">
                {version.anchor ? (
                  <>
                    Anchored in block {version.anchor.blockNumber}{' '}
                    <code className="wrap">{version.anchor.transactionHash}</code>
                  </>
                ) : (
                  'Being anchored…'
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>

      <PassportRecords
        dppId={dppId}
        fileName={lot ? `batch-${gtin}-${lot}` : `model-${gtin}`}
        environment={environment}
        mayRetry={mayEdit}
        onFail={onFail}
      />
    </>
  );
}
