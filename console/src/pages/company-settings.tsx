import { type FormEvent, useCallback, useEffect, useRef, useState } from 'react';
import { ApiError, type Environment, type SessionUser } from '../api.ts';
import { type CompanySettings, companySettings } from '../company-settings-api.ts';
import { ErrorAlert } from '../components/error-alert.tsx';
import { LiveStatus } from '../components/live-status.tsx';
import { SettingField } from '../components/setting-field.tsx';
import { useFailure } from '../hooks/use-failure.ts';
import { usePageHeading } from '../hooks/use-page-heading.ts';
import { NotAllowed, useRight } from '../rights.tsx';
import '../components/settings.css';
import './authoring/authoring.css';

interface CompanySettingsProps {
  user: SessionUser;
  environment: Environment;
  onSessionEnded: (error: unknown) => boolean;
}

type Field = keyof CompanySettings;
type Form = Record<Field, string>;

const ORDER: Field[] = ['economicOperatorId', 'facilityId', 'defaultConformityUrl', 'warrantyMonths'];

/** Each setting as a person reads it: its name, the rule it follows, and where it shows (what the API does). */
const FIELDS: Record<Field, { label: string; format: string; where: (env: Environment) => string }> = {
  economicOperatorId: {
    label: 'Economic operator ID',
    format:
      'Your company’s GLN (13 digits, the last one the GS1 check digit) or its EORI number (country code, ' +
      'then up to 15 letters or digits, e.g. DE123456789012345). Empty: not set.',
    where: (env) =>
      `in the EN 18223 header (economicOperatorId) of every ${env} passport, at once and for the passports ` +
      'you already have too; a passport’s version history records the new value at its next content change.',
  },
  facilityId: {
    label: 'Facility ID',
    format:
      'Where your products are made: a GLN (13 digits with check digit) or a web address or URN starting ' +
      'with https://, http:// or urn:. Empty: none.',
    where: (env) =>
      `in the EN 18223 header (facilityId) of every ${env} passport, at once and for the passports you ` +
      'already have too; a passport’s version history records the new value at its next content change.',
  },
  defaultConformityUrl: {
    label: 'Default declaration of conformity (URL)',
    format:
      'An http(s) address of your declaration of conformity. Empty: a mint that brings no declaration ' +
      'of its own is refused.',
    where: (env) =>
      `on ${env} passports minted from now on whose mint or factory bind brings no declaration of its own. ` +
      'Passports already minted keep the declaration they were minted with.',
  },
  warrantyMonths: {
    label: 'Warranty (months)',
    format: 'A whole number of months from 1 to 120; 24 when never set (the EU legal guarantee).',
    where: (env) =>
      `as the warranty end date of ${env} passports sold from now on (the sale event starts it). ` +
      'Warranties already running keep their end date.',
  },
};

const toForm = (settings: CompanySettings): Form => ({
  economicOperatorId: settings.economicOperatorId ?? '',
  facilityId: settings.facilityId ?? '',
  defaultConformityUrl: settings.defaultConformityUrl ?? '',
  warrantyMonths: String(settings.warrantyMonths),
});

const orNull = (value: string) => (value.trim() === '' ? null : value.trim());

/** What the API receives: empty text clears a setting; months that are not a number go as text (the API names them). */
const fromForm = (form: Form) =>
  ({
    economicOperatorId: orNull(form.economicOperatorId),
    facilityId: orNull(form.facilityId),
    defaultConformityUrl: orNull(form.defaultConformityUrl),
    warrantyMonths: /^\s*\d+\s*$/.test(form.warrantyMonths)
      ? Number(form.warrantyMonths)
      : form.warrantyMonths,
  }) as CompanySettings;

/** The refused fields of a 400 validation_failed (`body.warrantyMonths` → warrantyMonths). */
function fieldErrors(caught: unknown): Map<Field, string> {
  const errors = new Map<Field, string>();
  if (!(caught instanceof ApiError)) return errors;
  for (const { path, message } of caught.fields) {
    const field = path.split('.')[1] as Field;
    if (field in FIELDS && !errors.has(field)) errors.set(field, message);
  }
  return errors;
}

const shown = (value: string | number | null) => (value === null ? 'not set' : String(value));

/** Settings › Company: the product settings of one environment, edited only over what the person last read. */
export function CompanySettingsPage({ user, environment, onSessionEnded }: CompanySettingsProps) {
  const { error, setError, fail } = useFailure(onSessionEnded);
  const heading = usePageHeading('Company settings');
  const mayChange = useRight('managePassports');
  const [form, setForm] = useState<Form | null>(null);
  const [etag, setEtag] = useState<string | null>(null);
  const [errors, setErrors] = useState<Map<Field, string>>(new Map());
  const [conflict, setConflict] = useState<CompanySettings | null>(null);
  const [status, setStatus] = useState('');
  const [busy, setBusy] = useState(false);
  const summary = useRef<HTMLDivElement>(null);

  const load = useCallback(async () => {
    const answer = await companySettings.get(environment);
    setEtag(answer.etag);
    return answer.settings;
  }, [environment]);

  useEffect(() => {
    load().then((settings) => setForm(toForm(settings)), fail);
  }, [load, fail]);

  const save = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (form === null) return;
    setBusy(true);
    setError(null);
    setStatus('');
    setErrors(new Map());
    try {
      const answer = await companySettings.save(environment, fromForm(form), etag);
      setEtag(answer.etag);
      setForm(toForm(answer.settings));
      setConflict(null);
      setStatus(`Saved: the ${environment} settings are changed.`);
    } catch (caught) {
      if (caught instanceof ApiError && caught.status === 412) {
        // Someone saved in between: show what stands now; the form keeps this person's entries.
        setConflict(await load().catch(() => null));
      } else if (caught instanceof ApiError && caught.code === 'validation_failed') {
        setErrors(fieldErrors(caught));
        setTimeout(() => summary.current?.focus(), 0);
      } else fail(caught);
    } finally {
      setBusy(false);
    }
  };

  return (
    <section aria-labelledby="company-settings-heading" className="company-settings">
      <h1 id="company-settings-heading" ref={heading} tabIndex={-1}>
        Company settings
      </h1>
      <p className="lede">
        The product settings of {user.companyName} in <strong>{environment} mode</strong>. Test and live have
        their own: switch the mode at the top to see the other.
      </p>
      {mayChange ? null : <NotAllowed action="change the company settings" />}
      <ErrorAlert error={error} />
      {conflict ? (
        <div className="attention" role="alert">
          <h2>Not saved: someone changed these settings after you opened this page</h2>
          <p>They stand now at:</p>
          <ul>
            {ORDER.map((field) => (
              <li key={field}>
                {FIELDS[field].label}: {shown(conflict[field])}
                {form !== null && toForm(conflict)[field] !== form[field]
                  ? ` (your form: ${form[field].trim() === '' ? 'empty' : form[field]})`
                  : ''}
              </li>
            ))}
          </ul>
          <p>Your entries are still in the form. Save again to replace theirs, or take theirs.</p>
          <button
            type="button"
            className="secondary"
            onClick={() => {
              setForm(toForm(conflict));
              setConflict(null);
            }}
          >
            Take their values
          </button>
        </div>
      ) : null}
      {errors.size > 0 ? (
        <div className="error-summary" ref={summary} tabIndex={-1} role="alert">
          <h2>Not saved: {errors.size === 1 ? 'one field needs' : `${errors.size} fields need`} a change</h2>
          <ul>
            {ORDER.filter((field) => errors.has(field)).map((field) => (
              <li key={field}>
                <a href={`#setting-${field}`}>
                  {FIELDS[field].label}: {errors.get(field)}
                </a>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      <LiveStatus status={status} className="success" />
      {form === null ? (
        <p role="status">Loading the settings…</p>
      ) : (
        <form className="stacked-form" noValidate onSubmit={save} aria-label={`${environment} settings`}>
          {ORDER.map((field) => (
            <SettingField
              key={field}
              name={field}
              label={FIELDS[field].label}
              format={FIELDS[field].format}
              where={FIELDS[field].where(environment)}
              value={form[field]}
              error={errors.get(field)}
              readOnly={!mayChange}
              onChange={(value) => setForm({ ...form, [field]: value })}
              input={field === 'warrantyMonths' ? { inputMode: 'numeric' } : { spellCheck: false }}
            />
          ))}
          {mayChange ? (
            <button type="submit" disabled={busy}>
              {busy ? 'Saving…' : `Save the ${environment} settings`}
            </button>
          ) : null}
        </form>
      )}
    </section>
  );
}
