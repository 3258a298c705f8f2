import { type ChangeEvent, type FormEvent, useCallback, useEffect, useState } from 'react';
import { NotAllowed, useRight } from '../rights.tsx';
import '../account.css';
import '../branding.css';
import type { Environment, SessionUser } from '../api.ts';
import { type Branding, type BrandingChange, branding, fileBase64, PAGE_LANGUAGES } from '../branding-api.ts';
import { ErrorAlert } from '../components/error-alert.tsx';
import { LiveStatus } from '../components/live-status.tsx';
import { useAction } from '../hooks/use-action.ts';
import { useFailure } from '../hooks/use-failure.ts';
import { usePageHeading } from '../hooks/use-page-heading.ts';
import { BrandingPreview } from './branding-preview.tsx';

interface BrandingProps {
  user: SessionUser;
  environment: Environment;
  onSessionEnded: (error: unknown) => boolean;
}

const LINKS = [
  ['careUrl', 'Care instructions (URL)'],
  ['repairUrl', 'Repair service (URL)'],
  ['resaleUrl', 'Resale (URL)'],
  ['recyclingUrl', 'Where to recycle (URL)'],
  ['contactUrl', 'Customer service (URL)'],
] as const;

const DEFAULT_BRAND = '#1f3a5f';
const DEFAULT_LINK = '#0b57d0';

/** A colour as a picker and as `#rrggbb` text, both editing the same value. */
function ColourField(props: {
  id: string;
  label: string;
  value: string;
  fallback: string;
  onChange: (event: ChangeEvent<HTMLInputElement>) => void;
  hint: string;
}) {
  return (
    <>
      <label htmlFor={props.id}>{props.label}</label>
      <div className="colour-field">
        <input
          type="color"
          aria-label={`Pick: ${props.label.toLowerCase()}`}
          value={props.value || props.fallback}
          onChange={props.onChange}
        />
        <input id={props.id} value={props.value} onChange={props.onChange} placeholder={props.fallback} />
      </div>
      <p className="hint">{props.hint}</p>
    </>
  );
}

/** What the form holds: every field as text ('' = not set). */
type Draft = Record<Exclude<keyof Branding, 'logoUrl'>, string>;

const draftOf = (b: Branding): Draft => ({
  displayName: b.displayName ?? '',
  brandColor: b.brandColor ?? '',
  linkColor: b.linkColor ?? '',
  defaultLanguage: b.defaultLanguage,
  careUrl: b.careUrl ?? '',
  repairUrl: b.repairUrl ?? '',
  resaleUrl: b.resaleUrl ?? '',
  recyclingUrl: b.recyclingUrl ?? '',
  contactEmail: b.contactEmail ?? '',
  contactUrl: b.contactUrl ?? '',
});

/** The change a saved draft makes: an emptied field is cleared (null). */
const changeOf = (draft: Draft): BrandingChange => {
  const change: Record<string, string | null> = {};
  for (const [key, value] of Object.entries(draft)) change[key] = value.trim() === '' ? null : value.trim();
  change.defaultLanguage = draft.defaultLanguage;
  return change as BrandingChange;
};

/**
 * Settings › Branding: how the company's verification pages look (name, logo, colours), the language of its
 * passports' texts and where the owner actions lead, with a preview that follows every keystroke.
 */
export function BrandingSettings({ user, environment, onSessionEnded }: BrandingProps) {
  const { error, setError, fail } = useFailure(onSessionEnded);
  const [saved, setSaved] = useState<Branding | null>(null);
  const [draft, setDraft] = useState<Draft | null>(null);
  const heading = usePageHeading('Branding');
  const isOwner = useRight('manageCompany');

  const load = useCallback(async () => {
    try {
      const answer = await branding.get(environment);
      setSaved(answer);
      // What the person is typing stays: a reload (after a save, an upload, a new session) does not reset it.
      setDraft((current) => current ?? draftOf(answer));
    } catch (caught) {
      fail(caught);
    }
  }, [environment, fail]);
  useEffect(() => {
    void load();
  }, [load]);
  const { busy, status, act } = useAction({ load, fail, onStart: () => setError(null), clearStatus: true });

  const set = (key: keyof Draft) => (event: ChangeEvent<HTMLInputElement | HTMLSelectElement>) =>
    setDraft((current) => (current ? { ...current, [key]: event.target.value } : current));
  const save = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!draft) return;
    void act(async () => {
      setDraft(draftOf(await branding.save(environment, changeOf(draft))));
      return 'Branding saved: your passports’ pages show it now.';
    });
  };
  const upload = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    void act(async () => {
      await branding.uploadLogo(environment, await fileBase64(file));
      return `Logo ${file.name} stored.`;
    });
  };
  const removeLogo = () =>
    act(async () => {
      await branding.removeLogo(environment);
      return 'Logo removed: the pages show your name alone.';
    });

  return (
    <section aria-labelledby="branding-heading">
      <h1 id="branding-heading" ref={heading} tabIndex={-1}>
        Branding
      </h1>
      <p className="lede">
        How the page a buyer opens by tapping your product looks: your name, logo and colours, the language
        your passports’ texts are written in, and where its “What you can do” links lead.{' '}
      </p>
      {isOwner ? null : <NotAllowed action="change the branding" />}
      <LiveStatus status={status} className="success" />
      <ErrorAlert error={error} />
      {saved === null || draft === null ? (
        <p role="status">Loading the branding…</p>
      ) : (
        <div className="branding-layout">
          <form className="stacked-form" onSubmit={save} aria-label="Branding">
            <fieldset disabled={!isOwner || busy}>
              <legend>Name and colours</legend>
              <label htmlFor="brand-display-name">Name in the page’s header</label>
              <input
                id="brand-display-name"
                value={draft.displayName}
                onChange={set('displayName')}
                maxLength={80}
                placeholder={user.companyName}
              />
              <ColourField
                id="brand-color"
                label="Header colour"
                value={draft.brandColor}
                fallback={DEFAULT_BRAND}
                onChange={set('brandColor')}
                hint="The header’s text turns white or dark by itself, whichever reads better."
              />
              <ColourField
                id="link-color"
                label="Links and buttons"
                value={draft.linkColor}
                fallback={DEFAULT_LINK}
                onChange={set('linkColor')}
                hint="Needs a contrast of 4.5:1 on white (WCAG AA); a lighter colour is refused."
              />
              <label htmlFor="brand-language">Your passports’ texts are written in</label>
              <select id="brand-language" value={draft.defaultLanguage} onChange={set('defaultLanguage')}>
                {PAGE_LANGUAGES.map(([code, name]) => (
                  <option key={code} value={code}>
                    {name}
                  </option>
                ))}
              </select>
            </fieldset>
            <fieldset disabled={!isOwner || busy}>
              <legend>What the owner can do</legend>
              {LINKS.map(([key, label]) => (
                <div key={key} className="field">
                  <label htmlFor={`brand-${key}`}>{label}</label>
                  <input
                    id={`brand-${key}`}
                    type="url"
                    value={draft[key]}
                    onChange={set(key)}
                    placeholder="https://"
                  />
                </div>
              ))}
              <label htmlFor="brand-contact-email">Customer service e-mail</label>
              <input
                id="brand-contact-email"
                type="email"
                value={draft.contactEmail}
                onChange={set('contactEmail')}
              />
            </fieldset>
            {isOwner ? (
              <button type="submit" disabled={busy}>
                Save branding
              </button>
            ) : null}
          </form>
          <div className="branding-side">
            <h2>Logo</h2>
            {saved.logoUrl ? (
              <img className="logo-current" src={saved.logoUrl} alt={`Current logo of ${user.companyName}`} />
            ) : (
              <p>No logo yet: the pages show your name.</p>
            )}
            {isOwner ? (
              <div className="button-row">
                <label className="file-button">
                  {saved.logoUrl ? 'Replace logo' : 'Upload logo'}
                  <input
                    type="file"
                    accept="image/png,image/jpeg,image/webp,image/svg+xml"
                    onChange={upload}
                    disabled={busy}
                  />
                </label>
                {saved.logoUrl ? (
                  <button
                    type="button"
                    className="secondary"
                    onClick={() => void removeLogo()}
                    disabled={busy}
                  >
                    Remove logo
                  </button>
                ) : null}
              </div>
            ) : null}
            <p className="hint">PNG, JPEG, WebP or a plain SVG, at most 256 KiB; stored and served by us.</p>
            <h2>Preview</h2>
            <BrandingPreview draft={draft} logoUrl={saved.logoUrl} companyName={user.companyName} />
          </div>
        </div>
      )}
    </section>
  );
}
