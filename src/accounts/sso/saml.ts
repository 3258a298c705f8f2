import type { EntityManager } from '@mikro-orm/postgresql';
import { type CacheItem, type CacheProvider, SAML, ValidateInResponseTo } from '@node-saml/node-saml';
import { DomainError } from '../../platform/errors.ts';

/** How long an AuthnRequest may wait for its answer, and how long a used assertion is remembered. */
const REQUEST_MS = 10 * 60_000;
/** Clocks of the IdP and ours may differ this much. */
const CLOCK_SKEW_MS = 60_000;

export interface SamlEndpoints {
  /** Our entity id (the SP metadata's URL). */
  entityId: string;
  /** Our assertion consumer service (HTTP-POST binding). */
  acsUrl: string;
}

export interface SamlConnection {
  issuer: string;
  ssoUrl: string;
  certificate: string;
}

/** InResponseTo bookkeeping in the database, so any API process can take the IdP's answer. */
function requestCache(em: EntityManager): CacheProvider {
  return {
    async saveAsync(key: string, value: string): Promise<CacheItem | null> {
      await em.execute(
        `insert into saml_requests (id, value, expires_at) values (?, ?, now() + interval '${REQUEST_MS / 1000} seconds')
         on conflict do nothing`,
        [key, value],
      );
      return { value, createdAt: Date.now() };
    },
    async getAsync(key: string): Promise<string | null> {
      const [row] = await em.execute<{ value: string }[]>(
        'select value from saml_requests where id = ? and expires_at > now()',
        [key],
      );
      return row?.value ?? null;
    },
    async removeAsync(key: string | null): Promise<string | null> {
      if (key === null) return null;
      const [row] = await em.execute<{ value: string }[]>(
        'delete from saml_requests where id = ? returning value',
        [key],
      );
      return row?.value ?? null;
    },
  };
}

/** The SP of one company's connection: signed assertions required, audience, recipient, InResponseTo, skew. */
export function serviceProvider(
  em: EntityManager,
  endpoints: SamlEndpoints,
  connection?: SamlConnection,
): SAML {
  return new SAML({
    issuer: endpoints.entityId,
    callbackUrl: endpoints.acsUrl,
    audience: endpoints.entityId,
    idpCert: connection?.certificate ?? 'not-configured',
    ...(connection ? { entryPoint: connection.ssoUrl, idpIssuer: connection.issuer } : {}),
    wantAssertionsSigned: true,
    wantAuthnResponseSigned: false,
    acceptedClockSkewMs: CLOCK_SKEW_MS,
    validateInResponseTo: ValidateInResponseTo.always,
    requestIdExpirationPeriodMs: REQUEST_MS,
    cacheProvider: requestCache(em),
    identifierFormat: 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress',
    disableRequestedAuthnContext: true,
  });
}

/** An AuthnRequest (HTTP-Redirect binding) to the IdP, carrying our login state as RelayState. */
export async function samlAuthorizationUrl(
  em: EntityManager,
  endpoints: SamlEndpoints,
  connection: SamlConnection,
  state: string,
): Promise<string> {
  return serviceProvider(em, endpoints, connection).getAuthorizeUrlAsync(state, undefined, {});
}

/**
 * Checks the IdP's POSTed response (signature, audience, recipient, InResponseTo, validity window) and refuses
 * an assertion seen before. The subject is the NameID; the e-mail is the NameID or an `email` attribute.
 */
export async function validateSamlResponse(
  em: EntityManager,
  endpoints: SamlEndpoints,
  connection: SamlConnection,
  samlResponse: string,
): Promise<{ issuer: string; subject: string; email: string }> {
  const saml = serviceProvider(em, endpoints, connection);
  const { profile } = await saml
    .validatePostResponseAsync({ SAMLResponse: samlResponse })
    .catch((error: Error) => {
      throw new DomainError(
        'unauthenticated',
        'sso_login_failed',
        `The SAML response does not verify: ${error.message}`,
      );
    });
  if (!profile?.nameID)
    throw new DomainError('unauthenticated', 'sso_login_failed', 'The SAML response names no subject.');
  const assertionId = /\bID="([^"]+)"/.exec(profile.getAssertionXml?.() ?? '')?.[1];
  if (!assertionId) throw new DomainError('unauthenticated', 'sso_login_failed', 'The assertion has no ID.');
  const fresh = await em.execute<{ id: string }[]>(
    `insert into saml_assertions_seen (id, expires_at) values (?, now() + interval '${REQUEST_MS / 1000} seconds')
     on conflict do nothing returning id`,
    [`${connection.issuer} ${assertionId}`],
  );
  if (fresh.length === 0) {
    throw new DomainError(
      'unauthenticated',
      'saml_assertion_replayed',
      'This SAML assertion was used before.',
    );
  }
  const email = String((profile.email as string | undefined) ?? profile.nameID);
  return { issuer: connection.issuer, subject: profile.nameID, email };
}
