import { createHash, createPublicKey, type JsonWebKey, randomBytes, verify } from 'node:crypto';
import { DomainError } from '../../platform/errors.ts';
import { type OutboundPolicy, outboundFetch } from './outbound.ts';

export interface OidcProviderMetadata {
  issuer: string;
  authorization_endpoint: string;
  token_endpoint: string;
  jwks_uri: string;
}

const TIMEOUT_MS = 10_000;
const refused = (detail: string) => new DomainError('unauthenticated', 'sso_login_failed', detail);

async function getJson(
  url: string,
  policy: OutboundPolicy,
  init?: Parameters<typeof outboundFetch>[2],
): Promise<Record<string, unknown>> {
  const response = await outboundFetch(url, policy, {
    ...init,
    signal: AbortSignal.timeout(TIMEOUT_MS),
  }).catch((error: Error) => {
    if (error instanceof DomainError) throw error;
    throw new DomainError(
      'unavailable',
      'identity_provider_unavailable',
      `The identity provider: ${error.message}`,
    );
  });
  const body = (await response.json().catch(() => ({}))) as Record<string, unknown>;
  if (!response.ok) {
    throw refused(`The identity provider answered ${response.status}: ${String(body.error ?? '')}`.trim());
  }
  return body;
}

/** The provider's discovery document; its issuer must be exactly the configured one. */
export async function discover(issuer: string, policy: OutboundPolicy): Promise<OidcProviderMetadata> {
  const metadata = (await getJson(
    `${issuer.replace(/\/+$/, '')}/.well-known/openid-configuration`,
    policy,
  )) as unknown as OidcProviderMetadata;
  if (metadata.issuer !== issuer)
    throw refused(`The provider says its issuer is ${metadata.issuer}, not ${issuer}.`);
  return metadata;
}

export function pkcePair(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

/** Authorization code → tokens, the client authenticated by client_secret_basic. */
export async function exchangeCode(
  metadata: OidcProviderMetadata,
  client: { id: string; secret: string },
  input: { code: string; redirectUri: string; codeVerifier: string },
  policy: OutboundPolicy,
): Promise<string> {
  const basic = Buffer.from(`${encodeURIComponent(client.id)}:${encodeURIComponent(client.secret)}`).toString(
    'base64',
  );
  const tokens = await getJson(metadata.token_endpoint, policy, {
    method: 'POST',
    headers: { authorization: `Basic ${basic}`, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code: input.code,
      redirect_uri: input.redirectUri,
      code_verifier: input.codeVerifier,
    }).toString(),
  });
  if (typeof tokens.id_token !== 'string') throw refused('The provider returned no ID token.');
  return tokens.id_token;
}

const ALGORITHMS: Record<string, { hash: string | null; dsaEncoding?: 'ieee-p1363' }> = {
  RS256: { hash: 'sha256' },
  ES256: { hash: 'sha256', dsaEncoding: 'ieee-p1363' },
  EdDSA: { hash: null },
};

export interface IdTokenClaims {
  iss: string;
  sub: string;
  email?: string;
  email_verified?: boolean;
}

/**
 * Checks an ID token: signature with the provider's key (its kid, RS256, ES256 or EdDSA), issuer, audience
 * (our client id), expiry (30 s of skew) and the nonce this login sent.
 */
export async function verifyIdToken(
  metadata: OidcProviderMetadata,
  clientId: string,
  idToken: string,
  nonce: string,
  policy: OutboundPolicy,
): Promise<IdTokenClaims> {
  const [headerPart, payloadPart, signaturePart] = idToken.split('.');
  if (!headerPart || !payloadPart || !signaturePart) throw refused('The ID token is not a JWT.');
  const header = JSON.parse(Buffer.from(headerPart, 'base64url').toString('utf8')) as {
    alg: string;
    kid?: string;
  };
  const payload = JSON.parse(Buffer.from(payloadPart, 'base64url').toString('utf8')) as Record<
    string,
    unknown
  >;
  const algorithm = ALGORITHMS[header.alg];
  if (!algorithm) throw refused(`ID tokens signed with ${header.alg} are not accepted.`);
  const { keys } = (await getJson(metadata.jwks_uri, policy)) as { keys: (JsonWebKey & { kid?: string })[] };
  const jwk = keys.find((key) => key.kid === header.kid) ?? (keys.length === 1 ? keys[0] : undefined);
  if (!jwk) throw refused('The ID token names a key the provider does not publish.');
  const genuine = verify(
    algorithm.hash,
    Buffer.from(`${headerPart}.${payloadPart}`),
    {
      key: createPublicKey({ key: jwk, format: 'jwk' }),
      ...(algorithm.dsaEncoding ? { dsaEncoding: algorithm.dsaEncoding } : {}),
    },
    Buffer.from(signaturePart, 'base64url'),
  );
  if (!genuine) throw refused('The ID token signature does not verify.');
  const audience = Array.isArray(payload.aud) ? payload.aud : [payload.aud];
  const now = Math.floor(Date.now() / 1000);
  if (payload.iss !== metadata.issuer) throw refused('The ID token is from another issuer.');
  if (!audience.includes(clientId)) throw refused('The ID token is for another client.');
  if (typeof payload.exp !== 'number' || payload.exp + 30 < now) throw refused('The ID token has expired.');
  if (payload.nonce !== nonce) throw refused('The ID token does not answer this login (nonce).');
  if (typeof payload.sub !== 'string' || payload.sub === '') throw refused('The ID token names no subject.');
  return payload as unknown as IdTokenClaims;
}
