import './authoring.css';
import { type FormEvent, useCallback, useEffect, useRef, useState } from 'react';
import { ApiError, type Environment } from '../../api.ts';
import { CompletenessPanel } from '../../components/completeness-panel.tsx';
import { ErrorAlert } from '../../components/error-alert.tsx';
import { LiveStatus } from '../../components/live-status.tsx';
import { useFailure } from '../../hooks/use-failure.ts';
import { usePageHeading } from '../../hooks/use-page-heading.ts';
import { levelPath } from '../../levels-api.ts';
import { NotAllowed } from '../../rights.tsx';
import { BASE, linkHandler } from '../../router.ts';
import { authoring, type Completeness, FieldErrors, type Specification, StaleForm } from './authoring-api.ts';
import { ErrorSummary } from './error-summary.tsx';
import { completed, setAt, splitBySource } from './pointer.ts';
import { type FormContext, SchemaFields } from './schema-form.tsx';
import { validate } from './validate.ts';

type Json = Record<string, unknown>;

interface EditProps {
  dppId: string;
  environment: Environment;
  mayWrite: boolean;
  onSessionEnded: (error: unknown) => boolean;
}

interface Loaded {
  spec: Specification;
  granularity: string;
  name: string;
  own: Json;
  inherited: Json;
  etag: string | null;
}

const requestedSpec = () => new URLSearchParams(window.location.search).get('spec');

/** The specification to edit: the one asked for, else the one the passport pins, else the first registered. */
async function load(environment: Environment, dppId: string): Promise<Loaded> {
  const document = await authoring.document(environment, dppId);
  const pinned = (document.contentSpecificationIds as string[] | undefined) ?? [];
  const specs = await authoring.specifications(environment);
  const chosen =
    specs.find((spec) => spec.id === requestedSpec()) ??
    specs.find((spec) => pinned.includes(spec.id)) ??
    specs[0];
  if (!chosen) throw new ApiError(404, 'no_specification', 'The service has no content specification.');
  const [spec, read] = await Promise.all([
    authoring.specification(environment, chosen.id),
    authoring.read(environment, dppId, chosen.id),
  ]);
  const { own, inherited } = read
    ? splitBySource(read.data, read.sources, dppId)
    : { own: {}, inherited: {} };
  const publicPart = Object.values(document).find(
    (value): value is Json => typeof value === 'object' && value !== null && 'name' in value,
  );
  return {
    spec,
    granularity: String(document.granularity ?? 'item'),
    name: typeof publicPart?.name === 'string' ? publicPart.name : dppId,
    own,
    inherited,
    etag: read ? read.etag : null,
  };
}

/** Author a passport's product-group data (item, model or batch) with a form generated from its schema. */
export function EditContent({ dppId, environment, mayWrite, onSessionEnded }: EditProps) {
  const { error, setError, fail } = useFailure(onSessionEnded);
  const heading = usePageHeading('Edit product data');
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [value, setValue] = useState<Json>({});
  const [errors, setErrors] = useState<Map<string, string>>(new Map());
  const [completeness, setCompleteness] = useState<Completeness | null>(null);
  const [status, setStatus] = useState('');
  const [busy, setBusy] = useState(false);
  const summary = useRef<HTMLDivElement>(null);

  const refresh = useCallback(async () => {
    const next = await load(environment, dppId);
    setLoaded(next);
    setValue(next.own);
    setCompleteness(await authoring.completeness(environment, dppId));
  }, [environment, dppId]);
  useEffect(() => {
    refresh().catch(fail);
  }, [refresh, fail]);

  if (!loaded) {
    return (
      <section aria-labelledby="authoring-heading">
        <h1 id="authoring-heading" ref={heading} tabIndex={-1}>
          Edit product data
        </h1>
        <ErrorAlert error={error} />
        {error ? null : <p role="status">Loading the form…</p>}
      </section>
    );
  }
  const partial = loaded.granularity !== 'item';
  const context: FormContext = {
    value,
    inherited: loaded.inherited,
    errors,
    onChange: (pointer, next) => setValue((current) => setAt(current, pointer, next)),
  };
  const showErrors = (found: Map<string, string>) => {
    setErrors(found);
    window.setTimeout(() => summary.current?.focus(), 0);
  };

  const save = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setError(null);
    setStatus('');
    const found = validate(loaded.spec.schema, partial ? value : completed(loaded.inherited, value), partial);
    if (found.size > 0) return showErrors(found);
    setErrors(new Map());
    setBusy(true);
    try {
      const written = await authoring.write(environment, dppId, loaded.spec.id, value, loaded.etag);
      setLoaded({ ...loaded, own: value, etag: written.etag });
      setStatus(
        written.version === null ? 'Saved.' : `Saved: the passport is now at version ${written.version}.`,
      );
      setCompleteness(await authoring.completeness(environment, dppId));
    } catch (caught) {
      if (caught instanceof FieldErrors && caught.errors.length > 0) {
        setError(caught.message);
        showErrors(new Map(caught.errors.map((entry) => [entry.path, entry.message])));
      } else if (caught instanceof StaleForm) setError(caught.message);
      else fail(caught);
    } finally {
      setBusy(false);
    }
  };

  const passportLink =
    loaded.granularity === 'item' ? null : (
      <p className="hint">
        A {loaded.granularity} passport: its items inherit what it states; fields marked required are the ones
        each item must end up with (stated here or by the item).
      </p>
    );
  return (
    <section aria-labelledby="authoring-heading" className="authoring">
      <p>
        {loaded.granularity === 'item' ? (
          <a href={`${BASE}/passports`} onClick={linkHandler('/passports')}>
            ← All passports
          </a>
        ) : (
          <a href={`${BASE}${levelPath(dppId)}`} onClick={linkHandler(levelPath(dppId))}>
            ← The {loaded.granularity} passport
          </a>
        )}
      </p>
      <h1 id="authoring-heading" ref={heading} tabIndex={-1}>
        Edit product data
      </h1>
      <p className="lede">
        {loaded.name} · {loaded.granularity} passport · {loaded.spec.title} ({loaded.spec.id})
      </p>
      <p className="hint">
        <code className="wrap">{dppId}</code>
      </p>
      {passportLink}
      <CompletenessPanel
        completeness={completeness}
        authoringPath={`/authoring/${dppId}`}
        onAuthoringPage
        specification={loaded.spec}
      />
      <LiveStatus status={status} className="success" />
      <ErrorAlert error={error} />
      <ErrorSummary errors={errors} schema={loaded.spec.schema} ref={summary} />
      {mayWrite ? null : <NotAllowed action="change a passport’s product data" />}
      <form className="schema-form" noValidate onSubmit={save}>
        <fieldset className="read-only-when-disabled" disabled={!mayWrite}>
          <SchemaFields schema={loaded.spec.schema} context={context} />
        </fieldset>
        <div className="actions">
          <button type="submit" disabled={busy || !mayWrite}>
            {busy ? 'Saving…' : 'Save product data'}
          </button>
          <button
            type="button"
            className="secondary"
            onClick={() => {
              setError(null);
              setErrors(new Map());
              refresh().catch(fail);
            }}
          >
            Reload
          </button>
        </div>
      </form>
    </section>
  );
}
