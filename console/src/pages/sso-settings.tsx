import { type FormEvent, useCallback, useEffect, useState } from 'react';
import '../account.css';
import { type SsoSettings as Settings, sso } from '../account-api.ts';
import type { Environment, SessionUser } from '../api.ts';
import { ActionsHeader } from '../components/actions-header.tsx';
import { ErrorAlert } from '../components/error-alert.tsx';
import { LiveStatus } from '../components/live-status.tsx';
import { useAction } from '../hooks/use-action.ts';
import { useFailure } from '../hooks/use-failure.ts';
import { usePageHeading } from '../hooks/use-page-heading.ts';
import { useRight } from '../rights.tsx';

interface SsoSettingsProps {
  user: SessionUser;
  environment: Environment;
  onSessionEnded: (error: unknown) => boolean;
}

const text = (form: FormData, name: string) => String(form.get(name) ?? '').trim();

/** Settings › Single sign-on: the company's e-mail domains (proven) and its identity provider (OIDC or SAML). */
export function SsoSettings({ user, environment, onSessionEnded }: SsoSettingsProps) {
  const { error, setError, fail } = useFailure(onSessionEnded);
  const [settings, setSettings] = useState<Settings | null>(null);
  const [protocol, setProtocol] = useState<'oidc' | 'saml'>('oidc');
  const heading = usePageHeading('Single sign-on');
  const isOwner = useRight('manageCompany');

  const load = useCallback(async () => {
    try {
      const answer = await sso.settings(environment);
      setSettings(answer);
      if (answer.connection) setProtocol(answer.connection.protocol);
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

  const claim = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const formElement = event.currentTarget;
    const domain = text(new FormData(formElement), 'domain');
    void act(async () => {
      const answer = await sso.claimDomain(environment, domain);
      formElement.reset();
      return `${answer.domain} claimed: publish its token at ${answer.proofUrl}, then verify.`;
    });
  };
  const verify = (domain: string) =>
    act(async () => {
      await sso.verifyDomain(environment, domain);
      return `${domain} is verified.`;
    });
  const save = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const formElement = event.currentTarget;
    const form = new FormData(formElement);
    const required = form.get('required') !== null;
    void act(async () => {
      if (protocol === 'oidc') {
        await sso.saveOidc(environment, {
          issuer: text(form, 'issuer'),
          clientId: text(form, 'client-id'),
          clientSecret: text(form, 'client-secret'),
          required,
        });
      } else {
        await sso.saveSaml(environment, {
          entityId: text(form, 'entity-id'),
          ssoUrl: text(form, 'sso-url'),
          certificate: text(form, 'certificate'),
          required,
        });
      }
      // The secret leaves the page once saved (the API never shows it again either).
      formElement.reset();
      return `Your ${protocol === 'oidc' ? 'OpenID Connect' : 'SAML'} provider is saved.`;
    });
  };

  const connection = settings?.connection ?? null;
  return (
    <section aria-labelledby="sso-heading">
      <h1 id="sso-heading" ref={heading} tabIndex={-1}>
        Single sign-on
      </h1>
      <p className="lede">
        People with an address in a verified domain of {user.companyName} sign in through your identity
        provider; newcomers join as viewers.{' '}
        {isOwner ? '' : `Only owners change this; your role is ${user.role}.`}
      </p>
      <LiveStatus status={done} className="success" />
      <ErrorAlert error={error} />
      {settings === null ? (
        <p role="status">Loading the SSO settings…</p>
      ) : (
        <>
          <h2>E-mail domains</h2>
          {settings.domains.length === 0 ? (
            <p>No domain claimed yet.</p>
          ) : (
            <table className="keys">
              <caption className="visually-hidden">E-mail domains of {user.companyName}</caption>
              <thead>
                <tr>
                  <th scope="col">Domain</th>
                  <th scope="col">State</th>
                  <th scope="col">Proof</th>
                  {isOwner ? <ActionsHeader /> : null}
                </tr>
              </thead>
              <tbody>
                {settings.domains.map((d) => (
                  <tr key={d.domain}>
                    <td data-label="Domain">{d.domain}</td>
                    <td data-label="State">{d.verified ? 'Verified' : 'Not verified'}</td>
                    <td data-label="Proof">
                      {d.verified ? (
                        '—'
                      ) : (
                        <>
                          Serve <code className="wrap">{d.verificationToken}</code> at{' '}
                          <code className="wrap">{d.proofUrl}</code>
                        </>
                      )}
                    </td>
                    {isOwner ? (
                      <td>
                        <div className="actions">
                          {d.verified ? null : (
                            <button
                              type="button"
                              className="secondary"
                              disabled={busy}
                              aria-label={`Verify ${d.domain}`}
                              onClick={() => void verify(d.domain)}
                            >
                              Verify
                            </button>
                          )}
                        </div>
                      </td>
                    ) : null}
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          {isOwner ? (
            <form className="inline-form" onSubmit={claim}>
              <div className="field">
                <label htmlFor="sso-domain">Domain</label>
                <input id="sso-domain" name="domain" required placeholder="acme.example" autoComplete="off" />
              </div>
              <button type="submit" disabled={busy}>
                Claim domain
              </button>
            </form>
          ) : null}
          <h2>Identity provider</h2>
          {connection === null ? (
            <p>No identity provider yet.</p>
          ) : (
            <dl className="account-facts">
              <dt>Protocol</dt>
              <dd>{connection.protocol === 'oidc' ? 'OpenID Connect' : 'SAML 2.0'}</dd>
              <dt>{connection.protocol === 'oidc' ? 'Issuer' : 'Entity id'}</dt>
              <dd>{connection.protocol === 'oidc' ? connection.issuer : connection.entityId}</dd>
              {connection.protocol === 'oidc' ? (
                <>
                  <dt>Client id</dt>
                  <dd>{connection.clientId}</dd>
                </>
              ) : (
                <>
                  <dt>SSO URL</dt>
                  <dd>{connection.ssoUrl}</dd>
                </>
              )}
              <dt>Required</dt>
              <dd>{connection.required ? 'Yes: password and passkey sign-in are refused' : 'No'}</dd>
            </dl>
          )}
          {isOwner ? (
            <form className="stacked-form" onSubmit={save}>
              <fieldset>
                <legend>Protocol</legend>
                <label className="check">
                  <input
                    type="radio"
                    name="protocol"
                    value="oidc"
                    checked={protocol === 'oidc'}
                    onChange={() => setProtocol('oidc')}
                  />
                  OpenID Connect
                </label>
                <label className="check">
                  <input
                    type="radio"
                    name="protocol"
                    value="saml"
                    checked={protocol === 'saml'}
                    onChange={() => setProtocol('saml')}
                  />
                  SAML 2.0
                </label>
              </fieldset>
              {protocol === 'oidc' ? (
                <>
                  <p className="hint">
                    Register <code className="wrap">{settings.oidcRedirectUri}</code> as the redirect URI.
                  </p>
                  <label htmlFor="issuer">Issuer URL</label>
                  <input id="issuer" name="issuer" type="url" required autoComplete="off" />
                  <label htmlFor="client-id">Client id</label>
                  <input id="client-id" name="client-id" required autoComplete="off" />
                  <label htmlFor="client-secret">Client secret (stored sealed, never shown again)</label>
                  <input
                    id="client-secret"
                    name="client-secret"
                    type="password"
                    required
                    autoComplete="off"
                  />
                </>
              ) : (
                <>
                  <p className="hint">
                    Our metadata: <code className="wrap">{settings.samlMetadataUrl}</code>; assertion consumer
                    service (HTTP-POST): <code className="wrap">{settings.samlAcsUrl}</code>.
                  </p>
                  <label htmlFor="entity-id">IdP entity id</label>
                  <input id="entity-id" name="entity-id" required autoComplete="off" />
                  <label htmlFor="sso-url">IdP SSO URL</label>
                  <input id="sso-url" name="sso-url" type="url" required autoComplete="off" />
                  <label htmlFor="certificate">IdP signing certificate (PEM)</label>
                  <textarea id="certificate" name="certificate" required rows={6} />
                </>
              )}
              <label className="check">
                <input type="checkbox" name="required" defaultChecked={connection?.required ?? false} />
                Require single sign-on for our verified domains
              </label>
              <button type="submit" disabled={busy}>
                Save identity provider
              </button>
            </form>
          ) : null}
        </>
      )}
    </section>
  );
}
