import { randomBytes } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Environment } from '../../platform/config/config.ts';
import { DomainError } from '../../platform/errors.ts';
import type { SecretBox } from '../../platform/secret-box.ts';
import { normaliseEmail } from '../identity/email.ts';
import { discover, exchangeCode, pkcePair, verifyIdToken } from './oidc-client.ts';
import { type OutboundPolicy, outboundFetch } from './outbound.ts';
import { type SamlEndpoints, samlAuthorizationUrl, validateSamlResponse } from './saml.ts';

const LOGIN_MINUTES = 10;
const SECRET_CONTEXT = 'sso-oidc-client-secret';

export const domainOf = (email: string) => normaliseEmail(email).split('@')[1] ?? '';

/** A company claims a domain: a token it must publish at the proof URL before the domain counts. */
export async function claimDomain(
  em: EntityManager,
  companyId: string,
  domain: string,
): Promise<{ domain: string; verificationToken: string; verified: boolean }> {
  const token = `dpp-domain-verification=${randomBytes(16).toString('hex')}`;
  const [row] = await em.execute<
    { company_id: string; verification_token: string; verified_at: Date | null }[]
  >(
    `insert into sso_domains (domain, company_id, verification_token) values (?, ?, ?)
     on conflict (domain) do update set domain = excluded.domain
     returning company_id, verification_token, verified_at`,
    [domain, companyId, token],
  );
  if (row!.company_id !== companyId) {
    throw new DomainError('conflict', 'domain_claimed', `${domain} is claimed by another company.`);
  }
  return { domain, verificationToken: row!.verification_token, verified: row!.verified_at !== null };
}

/** Fetches the proof URL; the domain is verified when it serves the token. */
export async function verifyDomain(
  em: EntityManager,
  companyId: string,
  domain: string,
  proofUrlTemplate: string,
  policy: OutboundPolicy,
): Promise<void> {
  const [row] = await em.execute<{ verification_token: string }[]>(
    'select verification_token from sso_domains where domain = ? and company_id = ?',
    [domain, companyId],
  );
  if (!row)
    throw new DomainError('not_found', 'domain_not_found', `${domain} is not claimed by your company.`);
  const url = proofUrlTemplate.replace('{domain}', domain);
  const body = await outboundFetch(url, policy, { signal: AbortSignal.timeout(5_000) })
    .then((response) => (response.ok ? response.text() : ''))
    .catch((error: unknown) => {
      if (error instanceof DomainError) throw error;
      return '';
    });
  if (!body.includes(row.verification_token)) {
    throw new DomainError(
      'rejected',
      'domain_proof_missing',
      `${url} does not serve the verification token.`,
    );
  }
  await em.execute('update sso_domains set verified_at = coalesce(verified_at, now()) where domain = ?', [
    domain,
  ]);
}

export async function saveOidcConnection(
  em: EntityManager,
  box: SecretBox,
  companyId: string,
  input: { issuer: string; clientId: string; clientSecret: string; required: boolean },
  policy: OutboundPolicy,
): Promise<void> {
  // Checked now, so a wrong issuer is the caller's to fix (422) rather than every login's failure later.
  await discover(input.issuer, policy).catch((error: unknown) => {
    const detail = error instanceof Error ? error.message : String(error);
    throw new DomainError(
      'rejected',
      'issuer_not_usable',
      `${input.issuer} is not a usable OpenID issuer: ${detail}`,
    );
  });
  await em.execute(
    `insert into sso_connections (company_id, protocol, issuer, client_id, client_secret_sealed, required)
     values (?, 'oidc', ?, ?, ?, ?)
     on conflict (company_id) do update set protocol = 'oidc', issuer = excluded.issuer,
       client_id = excluded.client_id, client_secret_sealed = excluded.client_secret_sealed,
       saml_sso_url = null, saml_certificate = null, required = excluded.required, updated_at = now()`,
    [
      companyId,
      input.issuer,
      input.clientId,
      box.seal(Buffer.from(input.clientSecret), SECRET_CONTEXT),
      input.required,
    ],
  );
}

/** The company's SAML IdP: its entity id, SSO URL (HTTP-Redirect) and signing certificate (PEM). */
export async function saveSamlConnection(
  em: EntityManager,
  companyId: string,
  input: { entityId: string; ssoUrl: string; certificate: string; required: boolean },
): Promise<void> {
  await em.execute(
    `insert into sso_connections (company_id, protocol, issuer, saml_sso_url, saml_certificate, required)
     values (?, 'saml', ?, ?, ?, ?)
     on conflict (company_id) do update set protocol = 'saml', issuer = excluded.issuer,
       saml_sso_url = excluded.saml_sso_url, saml_certificate = excluded.saml_certificate,
       client_id = null, client_secret_sealed = null, required = excluded.required, updated_at = now()`,
    [companyId, input.entityId, input.ssoUrl, input.certificate, input.required],
  );
}

interface ConnectionRow {
  company_id: string;
  protocol: 'oidc' | 'saml';
  issuer: string;
  client_id: string | null;
  client_secret_sealed: Buffer | null;
  saml_sso_url: string | null;
  saml_certificate: string | null;
  required: boolean;
}

const samlConnectionOf = (row: ConnectionRow) => ({
  issuer: row.issuer,
  ssoUrl: row.saml_sso_url!,
  certificate: row.saml_certificate!,
});

/** The connection of the company that verified the e-mail's domain, if any. */
async function connectionForEmail(
  em: EntityManager,
  email: string,
): Promise<(ConnectionRow & { domain: string }) | undefined> {
  const domain = domainOf(email);
  const [row] = await em.execute<(ConnectionRow & { domain: string })[]>(
    `select c.*, d.domain from sso_domains d join sso_connections c on c.company_id = d.company_id
     where d.domain = ? and d.verified_at is not null`,
    [domain],
  );
  return row;
}

/** Password and passkey logins of a domain whose company made SSO mandatory are refused. */
export async function assertSsoNotRequired(em: EntityManager, email: string): Promise<void> {
  const connection = await connectionForEmail(em, email);
  if (connection?.required) {
    throw new DomainError(
      'forbidden',
      'sso_required',
      `Your company requires single sign-on for ${connection.domain}: start at POST /v1/auth/sso/discover.`,
    );
  }
}

export type Discovery =
  | { method: 'sso'; protocol: 'oidc' | 'saml'; authorizationUrl: string }
  | { method: 'password_or_passkey' };

export interface SsoEndpoints {
  oidcRedirectUri: string;
  saml: SamlEndpoints;
  outbound: OutboundPolicy;
}

/** Where an e-mail logs in: its company's identity provider (a fresh state, nonce and PKCE), or here. */
export async function discoverLogin(
  em: EntityManager,
  email: string,
  environment: Environment,
  endpoints: SsoEndpoints,
): Promise<Discovery> {
  const connection = await connectionForEmail(em, email);
  if (!connection) return { method: 'password_or_passkey' };
  const state = randomBytes(24).toString('base64url');
  const nonce = randomBytes(24).toString('base64url');
  const pkce = pkcePair();
  await em.execute(
    `insert into sso_logins (state, company_id, environment, domain, nonce, code_verifier, expires_at)
     values (?, ?, ?, ?, ?, ?, now() + interval '${LOGIN_MINUTES} minutes')`,
    [state, connection.company_id, environment, connection.domain, nonce, pkce.verifier],
  );
  if (connection.protocol === 'saml') {
    const authorizationUrl = await samlAuthorizationUrl(
      em,
      endpoints.saml,
      samlConnectionOf(connection),
      state,
    );
    return { method: 'sso', protocol: 'saml', authorizationUrl };
  }
  const metadata = await discover(connection.issuer, endpoints.outbound);
  const redirectUri = endpoints.oidcRedirectUri;
  const url = new URL(metadata.authorization_endpoint);
  url.search = new URLSearchParams({
    response_type: 'code',
    client_id: connection.client_id!,
    redirect_uri: redirectUri,
    scope: 'openid email',
    state,
    nonce,
    code_challenge: pkce.challenge,
    code_challenge_method: 'S256',
    login_hint: normaliseEmail(email),
  }).toString();
  return { method: 'sso', protocol: 'oidc', authorizationUrl: url.toString() };
}

interface LoginState {
  company_id: string;
  environment: Environment;
  domain: string;
  nonce: string;
  code_verifier: string;
}

async function takeLogin(
  em: EntityManager,
  state: string,
): Promise<{ login: LoginState; connection: ConnectionRow }> {
  const [login] = await em.execute<LoginState[]>(
    `update sso_logins set used_at = now()
     where state = ? and used_at is null and expires_at > now()
     returning company_id, environment, domain, nonce, code_verifier`,
    [state],
  );
  if (!login)
    throw new DomainError(
      'unauthenticated',
      'sso_state_invalid',
      'Unknown, used or expired login: start again.',
    );
  const [connection] = await em.execute<ConnectionRow[]>(
    'select * from sso_connections where company_id = ?',
    [login.company_id],
  );
  if (!connection)
    throw new DomainError('unauthenticated', 'sso_login_failed', 'The SSO connection was removed.');
  return { login, connection };
}

/**
 * The person the IdP vouched for: found by (issuer, subject), or provisioned just in time into the domain's
 * company. The e-mail must be in the verified domain the login started from.
 */
async function findOrProvision(
  em: EntityManager,
  login: LoginState,
  identity: { issuer: string; subject: string; email: string | undefined; emailVerified: boolean },
): Promise<{ userId: number; environment: Environment }> {
  const email = identity.email ? normaliseEmail(identity.email) : '';
  if (!email || !identity.emailVerified || domainOf(email) !== login.domain) {
    throw new DomainError(
      'unauthenticated',
      'sso_login_failed',
      `The identity provider vouched for no verified address in ${login.domain}.`,
    );
  }
  const [known] = await em.execute<{ user_id: number }[]>(
    'select user_id from sso_identities where issuer = ? and subject = ?',
    [identity.issuer, identity.subject],
  );
  if (known) return { userId: known.user_id, environment: login.environment };
  const [existing] = await em.execute<{ id: number; company_id: string }[]>(
    'select id, company_id from users where email = ?',
    [email],
  );
  if (existing && existing.company_id !== login.company_id) {
    throw new DomainError(
      'conflict',
      'email_in_other_company',
      `${email} has an account in another company.`,
    );
  }
  const userId =
    existing?.id ??
    (
      await em.execute<{ id: number }[]>(
        `insert into users (company_id, email, password_hash, email_confirmed_at, created_at)
         values (?, ?, null, now(), now()) returning id`,
        [login.company_id, email],
      )
    )[0]!.id;
  await em.execute(
    'insert into sso_identities (issuer, subject, user_id) values (?, ?, ?) on conflict do nothing',
    [identity.issuer, identity.subject, userId],
  );
  return { userId, environment: login.environment };
}

/** The OpenID provider's redirect: the state (once), the code exchanged with PKCE, the ID token checked. */
export async function completeOidcLogin(
  em: EntityManager,
  box: SecretBox,
  input: { state: string; code: string; redirectUri: string },
  policy: OutboundPolicy,
): Promise<{ userId: number; environment: Environment }> {
  const { login, connection } = await takeLogin(em, input.state);
  if (connection.protocol !== 'oidc')
    throw new DomainError('unauthenticated', 'sso_login_failed', 'Not an OIDC login.');
  const metadata = await discover(connection.issuer, policy);
  const clientSecret = box.open(connection.client_secret_sealed!, SECRET_CONTEXT).toString();
  const idToken = await exchangeCode(
    metadata,
    { id: connection.client_id!, secret: clientSecret },
    {
      code: input.code,
      redirectUri: input.redirectUri,
      codeVerifier: login.code_verifier,
    },
    policy,
  );
  const claims = await verifyIdToken(metadata, connection.client_id!, idToken, login.nonce, policy);
  return findOrProvision(em, login, {
    issuer: claims.iss,
    subject: claims.sub,
    email: claims.email,
    emailVerified: claims.email_verified !== false,
  });
}

/** The SAML IdP's POST: the login (RelayState, once), the response and its assertion checked. */
export async function completeSamlLogin(
  em: EntityManager,
  endpoints: SamlEndpoints,
  input: { samlResponse: string; relayState: string },
): Promise<{ userId: number; environment: Environment }> {
  const { login, connection } = await takeLogin(em, input.relayState);
  if (connection.protocol !== 'saml')
    throw new DomainError('unauthenticated', 'sso_login_failed', 'Not a SAML login.');
  const identity = await validateSamlResponse(
    em,
    endpoints,
    samlConnectionOf(connection),
    input.samlResponse,
  );
  return findOrProvision(em, login, { ...identity, emailVerified: true });
}

export interface SsoSettings {
  domains: { domain: string; verificationToken: string; verified: boolean }[];
  connection:
    | { protocol: 'oidc'; issuer: string; clientId: string; required: boolean }
    | { protocol: 'saml'; entityId: string; ssoUrl: string; required: boolean }
    | null;
}

/** The company's claimed domains and its identity provider (never the client secret or the certificate). */
export async function ssoSettings(em: EntityManager, companyId: string): Promise<SsoSettings> {
  const domains = await em.execute<
    { domain: string; verification_token: string; verified_at: Date | null }[]
  >('select domain, verification_token, verified_at from sso_domains where company_id = ? order by domain', [
    companyId,
  ]);
  const [row] = await em.execute<ConnectionRow[]>('select * from sso_connections where company_id = ?', [
    companyId,
  ]);
  return {
    domains: domains.map((d) => ({
      domain: d.domain,
      verificationToken: d.verification_token,
      verified: d.verified_at !== null,
    })),
    connection: !row
      ? null
      : row.protocol === 'saml'
        ? { protocol: 'saml', entityId: row.issuer, ssoUrl: row.saml_sso_url ?? '', required: row.required }
        : { protocol: 'oidc', issuer: row.issuer, clientId: row.client_id ?? '', required: row.required },
  };
}
