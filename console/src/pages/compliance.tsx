import { type FormEvent, useCallback, useEffect, useState } from 'react';
import '../account.css';
import { type DocumentType, type KybStatus, kyb } from '../account-api.ts';
import type { Environment, SessionUser } from '../api.ts';
import { ErrorAlert } from '../components/error-alert.tsx';
import { LiveStatus } from '../components/live-status.tsx';
import { useAction } from '../hooks/use-action.ts';
import { useFailure } from '../hooks/use-failure.ts';
import { usePageHeading } from '../hooks/use-page-heading.ts';
import { useRight } from '../rights.tsx';

interface ComplianceProps {
  user: SessionUser;
  environment: Environment;
  onSessionEnded: (error: unknown) => boolean;
}

/** The API's limit (src/accounts/compliance/documents.ts): checked here too, so a big file fails before uploading. */
const MAX_DOCUMENT_BYTES = 10 * 1024 * 1024;
const STATUS_TEXT: Record<string, string> = {
  not_started: 'Not started',
  pending: 'Pending: Stripe is verifying',
  verified: 'Verified',
  restricted: 'Restricted: Stripe needs more',
};
const DOCUMENTS: { value: DocumentType; label: string }[] = [
  { value: 'registry_extract', label: 'Commercial register extract' },
  { value: 'proof_of_address', label: 'Proof of address' },
  { value: 'identity_document', label: 'Representative’s ID document' },
];

async function base64Of(file: File): Promise<string> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(binary);
}

const text = (form: FormData, name: string) => String(form.get(name) ?? '').trim();
const addressOf = (form: FormData, prefix: string) => ({
  line1: text(form, `${prefix}-line1`),
  city: text(form, `${prefix}-city`),
  postalCode: text(form, `${prefix}-postal-code`),
  country: text(form, `${prefix}-country`).toUpperCase(),
});

function AddressFields({ prefix, legend }: { prefix: string; legend: string }) {
  return (
    <fieldset>
      <legend>{legend}</legend>
      <label htmlFor={`${prefix}-line1`}>Street and number</label>
      <input id={`${prefix}-line1`} name={`${prefix}-line1`} required autoComplete="address-line1" />
      <div className="two-columns">
        <div>
          <label htmlFor={`${prefix}-postal-code`}>Postal code</label>
          <input
            id={`${prefix}-postal-code`}
            name={`${prefix}-postal-code`}
            required
            autoComplete="postal-code"
          />
        </div>
        <div>
          <label htmlFor={`${prefix}-city`}>City</label>
          <input id={`${prefix}-city`} name={`${prefix}-city`} required autoComplete="address-level2" />
        </div>
      </div>
      <label htmlFor={`${prefix}-country`}>Country (two letters, e.g. DE)</label>
      <input
        id={`${prefix}-country`}
        name={`${prefix}-country`}
        required
        pattern="[A-Za-z]{2}"
        maxLength={2}
        autoComplete="country"
      />
    </fieldset>
  );
}

/** Settings › Compliance: the company's business verification (KYB) at Stripe; owners submit and upload. */
export function Compliance({ user, environment, onSessionEnded }: ComplianceProps) {
  const { error, setError, fail } = useFailure(onSessionEnded);
  const [status, setStatus] = useState<KybStatus | null>(null);
  const heading = usePageHeading('Compliance');
  const isOwner = useRight('manageCompany');

  const load = useCallback(async () => {
    try {
      setStatus(await kyb.status(environment));
    } catch (caught) {
      fail(caught);
    }
  }, [environment, fail]);
  useEffect(() => {
    void load();
  }, [load]);

  const {
    busy,
    status: done,
    act,
  } = useAction({ load, fail, onStart: () => setError(null), clearStatus: true });

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const companyAddress = addressOf(form, 'company');
    void act(async () => {
      await kyb.submit(environment, {
        company: {
          name: text(form, 'company-name'),
          taxId: text(form, 'tax-id'),
          address: companyAddress,
          ...(text(form, 'phone') ? { phone: text(form, 'phone') } : {}),
        },
        representative: {
          firstName: text(form, 'first-name'),
          lastName: text(form, 'last-name'),
          email: text(form, 'rep-email'),
          birthdate: text(form, 'birthdate'),
          address: form.get('same-address') ? companyAddress : addressOf(form, 'rep'),
        },
        tosAcceptance: { accepted: true },
      });
      return 'Submitted to Stripe for verification. The status below follows Stripe’s answer.';
    });
  };

  const upload = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const formElement = event.currentTarget;
    const form = new FormData(formElement);
    const file = form.get('document');
    void act(async () => {
      if (!(file instanceof File) || file.size === 0) throw new Error('Choose a PDF, JPEG or PNG file.');
      if (file.size > MAX_DOCUMENT_BYTES) throw new Error('A document may have at most 10 MB.');
      const answer = await kyb.upload(
        environment,
        form.get('document-type') as DocumentType,
        await base64Of(file),
      );
      formElement.reset();
      return `${file.name}: ${answer.message}`;
    });
  };

  const [sameAddress, setSameAddress] = useState(true);
  return (
    <section aria-labelledby="compliance-heading">
      <h1 id="compliance-heading" ref={heading} tabIndex={-1}>
        Compliance
      </h1>
      <p className="lede">
        Business verification (KYB) of {user.companyName} in the {environment} environment, run by Stripe.
        Your details go to Stripe and are not stored by this service.
      </p>
      <LiveStatus status={done} className="success" />
      <ErrorAlert error={error} />
      {status === null ? (
        <p role="status">Loading the verification…</p>
      ) : (
        <div className="card">
          <h2>Status</h2>
          <dl className="account-facts">
            <dt>Verification</dt>
            <dd>{STATUS_TEXT[status.status] ?? status.status}</dd>
            <dt>Stripe account</dt>
            <dd>{status.connectId ? <code>{status.connectId}</code> : 'None yet'}</dd>
            <dt>Requirements</dt>
            <dd>
              {status.requirements.length === 0 ? (
                'Nothing outstanding'
              ) : (
                <ul>
                  {status.requirements.map((requirement) => (
                    <li key={requirement}>
                      <code>{requirement}</code>
                    </li>
                  ))}
                </ul>
              )}
            </dd>
          </dl>
        </div>
      )}
      {!isOwner ? (
        <p className="notice">Only owners submit the verification; your role is {user.role}.</p>
      ) : (
        <>
          <h2>Submit your company’s details</h2>
          <form className="stacked-form" onSubmit={submit}>
            <fieldset>
              <legend>Company</legend>
              <label htmlFor="company-name">Legal name</label>
              <input
                id="company-name"
                name="company-name"
                required
                maxLength={200}
                autoComplete="organization"
              />
              <label htmlFor="tax-id">Tax or VAT id</label>
              <input id="tax-id" name="tax-id" required minLength={2} maxLength={40} />
              <label htmlFor="phone">Phone (optional)</label>
              <input id="phone" name="phone" type="tel" maxLength={30} autoComplete="tel" />
            </fieldset>
            <AddressFields prefix="company" legend="Company address" />
            <fieldset>
              <legend>Representative</legend>
              <div className="two-columns">
                <div>
                  <label htmlFor="first-name">First name</label>
                  <input id="first-name" name="first-name" required autoComplete="given-name" />
                </div>
                <div>
                  <label htmlFor="last-name">Last name</label>
                  <input id="last-name" name="last-name" required autoComplete="family-name" />
                </div>
              </div>
              <label htmlFor="rep-email">E-mail</label>
              <input id="rep-email" name="rep-email" type="email" required autoComplete="email" />
              <label htmlFor="birthdate">Date of birth</label>
              <input id="birthdate" name="birthdate" type="date" required autoComplete="bday" />
              <label className="check">
                <input
                  type="checkbox"
                  name="same-address"
                  checked={sameAddress}
                  onChange={(event) => setSameAddress(event.target.checked)}
                />
                Lives at the company’s address
              </label>
            </fieldset>
            {sameAddress ? null : <AddressFields prefix="rep" legend="Representative’s address" />}
            <label className="check">
              <input type="checkbox" name="tos" required />
              We accept Stripe’s Connected Account Agreement.
            </label>
            <button type="submit" disabled={busy}>
              {busy ? 'Sending…' : 'Submit for verification'}
            </button>
          </form>
          <h2>Upload a document</h2>
          <form className="stacked-form" onSubmit={upload}>
            <label htmlFor="document-type">Document</label>
            <select id="document-type" name="document-type" defaultValue="registry_extract">
              {DOCUMENTS.map((d) => (
                <option key={d.value} value={d.value}>
                  {d.label}
                </option>
              ))}
            </select>
            <label htmlFor="document">File (PDF, JPEG or PNG, at most 10 MB)</label>
            <input
              id="document"
              name="document"
              type="file"
              required
              accept="application/pdf,image/jpeg,image/png"
            />
            <button type="submit" disabled={busy || status?.connectId === null}>
              Upload
            </button>
            {status?.connectId === null ? <p className="hint">Submit your details first.</p> : null}
          </form>
        </>
      )}
    </section>
  );
}
