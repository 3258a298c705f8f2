import './authoring.css';
import { type FormEvent, useState } from 'react';
import type { Environment } from '../../api.ts';
import { ErrorAlert } from '../../components/error-alert.tsx';
import { useFailure } from '../../hooks/use-failure.ts';
import { usePageHeading } from '../../hooks/use-page-heading.ts';
import { NotAllowed } from '../../rights.tsx';
import { navigate } from '../../router.ts';
import { authoring } from './authoring-api.ts';

interface NewLevelProps {
  environment: Environment;
  mayWrite: boolean;
  onSessionEnded: (error: unknown) => boolean;
}

/**
 * A model passport (one per GTIN) or a batch passport (one per GTIN and lot): created with POST /v1/dpps, then
 * its product data is authored on its edit page; the items of that GTIN (and batch) inherit what it states.
 */
export function NewLevel({ environment, mayWrite, onSessionEnded }: NewLevelProps) {
  const { error, setError, fail } = useFailure(onSessionEnded);
  const heading = usePageHeading('New model or batch passport');
  // The list's "Add a batch passport" asks for a batch (?granularity=Batch).
  const [granularity, setGranularity] = useState<'Model' | 'Batch'>(() =>
    new URLSearchParams(window.location.search).get('granularity') === 'Batch' ? 'Batch' : 'Model',
  );
  const [busy, setBusy] = useState(false);

  const create = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setError(null);
    setBusy(true);
    try {
      const lot = String(form.get('lot') ?? '').trim();
      const created = await authoring.createLevel(environment, {
        granularity,
        gtin: String(form.get('gtin')).trim(),
        ...(granularity === 'Batch' ? { lot } : {}),
      });
      navigate(`/authoring/${created.digitalProductPassportId}`);
    } catch (caught) {
      fail(caught);
    } finally {
      setBusy(false);
    }
  };

  return (
    <section aria-labelledby="new-level-heading">
      <h1 id="new-level-heading" ref={heading} tabIndex={-1}>
        New model or batch passport
      </h1>
      <p className="lede">
        A model passport states once what every item of a GTIN shares; a batch passport what one lot shares.
        Each item passport of that GTIN (and batch number) inherits it; what an item states itself wins.
      </p>
      <ErrorAlert error={error} />
      {mayWrite ? null : <NotAllowed action="create passports" />}
      <form className="stacked-form" onSubmit={create} hidden={!mayWrite}>
        <fieldset>
          <legend>Granularity</legend>
          {(['Model', 'Batch'] as const).map((option) => (
            <label key={option} className="radio">
              <input
                type="radio"
                name="granularity"
                value={option}
                checked={granularity === option}
                onChange={() => setGranularity(option)}
              />{' '}
              {option === 'Model' ? 'Model (one per GTIN)' : 'Batch (one per GTIN and lot)'}
            </label>
          ))}
        </fieldset>
        <label htmlFor="level-gtin">GTIN (8, 12, 13 or 14 digits, check digit included)</label>
        <input id="level-gtin" name="gtin" required inputMode="numeric" pattern="[0-9]{8,14}" />
        {granularity === 'Batch' ? (
          <>
            <label htmlFor="level-lot">Batch / lot number</label>
            <input id="level-lot" name="lot" required maxLength={20} />
          </>
        ) : null}
        <button type="submit" disabled={busy || !mayWrite}>
          {busy ? 'Creating…' : `Create the ${granularity.toLowerCase()} passport`}
        </button>
      </form>
    </section>
  );
}
