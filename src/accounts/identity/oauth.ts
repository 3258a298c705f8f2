import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Environment } from '../../platform/config/config.ts';
import type { TenantScope } from '../../platform/db/tenant-scope.ts';

/** Exactly one hour, as the spec says. */
export const ACCESS_TOKEN_SECONDS = 3600;
/** A refresh token is good for 30 days, once. */
export const REFRESH_TOKEN_DAYS = 30;
/** Two refreshes racing with the same token within this window are one client retrying, not a theft. */
const REUSE_GRACE_SECONDS = 10;

const ACCESS_PREFIX = 'dpp_at_';
const REFRESH_PREFIX = 'dpp_rt_';

const secret = (prefix: string, bytes: number) => `${prefix}${randomBytes(bytes).toString('base64url')}`;
const hashOf = (value: string) => createHash('sha256').update(value).digest();

export interface OAuthClientView {
  id: string;
  clientId: string;
  name: string;
  environment: Environment;
  createdAt: string;
  revokedAt: string | null;
}

interface ClientRow {
  id: string;
  company_id: string;
  environment: Environment;
  client_id: string;
  secret_hash: Buffer;
  name: string;
  created_at: Date;
  revoked_at: Date | null;
}

const view = (row: ClientRow): OAuthClientView => ({
  id: row.id,
  clientId: row.client_id,
  name: row.name,
  environment: row.environment,
  createdAt: new Date(row.created_at).toISOString(),
  revokedAt: row.revoked_at ? new Date(row.revoked_at).toISOString() : null,
});

/** A new client of the scope; its secret is returned once and only its hash is kept. */
export async function createOAuthClient(
  em: EntityManager,
  scope: TenantScope,
  name: string,
): Promise<{ client: OAuthClientView; clientSecret: string }> {
  const clientSecret = secret('dpp_cs_', 32);
  const [row] = await em.execute<ClientRow[]>(
    `insert into oauth_clients (id, company_id, environment, client_id, secret_hash, name)
     values (?, ?, ?, ?, ?, ?) returning *`,
    [randomUUID(), scope.companyId, scope.environment, secret('dpp_client_', 12), hashOf(clientSecret), name],
  );
  return { client: view(row!), clientSecret };
}

export async function listOAuthClients(em: EntityManager, scope: TenantScope): Promise<OAuthClientView[]> {
  const rows = await em.execute<ClientRow[]>(
    `select * from oauth_clients where company_id = ? and environment = ? and revoked_at is null
     order by created_at desc`,
    [scope.companyId, scope.environment],
  );
  return rows.map(view);
}

/** Revokes the client and every token it holds; null when the scope has no such client. */
export async function revokeOAuthClient(
  em: EntityManager,
  scope: TenantScope,
  id: string,
): Promise<OAuthClientView | null> {
  const [row] = await em.execute<ClientRow[]>(
    `with client as (
       update oauth_clients set revoked_at = coalesce(revoked_at, now())
       where id = ? and company_id = ? and environment = ? returning *
     ), tokens as (
       update oauth_tokens set revoked_at = coalesce(revoked_at, now()) where client_id in (select id from client)
     )
     select * from client`,
    [id, scope.companyId, scope.environment],
  );
  return row ? view(row) : null;
}

export interface TokenGrant {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  refresh_token: string;
}

export type OAuthErrorCode =
  | 'invalid_client'
  | 'invalid_grant'
  | 'invalid_request'
  | 'unsupported_grant_type';

/** An RFC 6749 §5.2 error of the token endpoint. */
export class OAuthError extends Error {
  readonly error: OAuthErrorCode;
  constructor(error: OAuthErrorCode, message: string) {
    super(message);
    this.name = 'OAuthError';
    this.error = error;
  }
}

async function issue(em: EntityManager, clientRowId: string, familyId: string): Promise<TokenGrant> {
  const access = secret(ACCESS_PREFIX, 32);
  const refresh = secret(REFRESH_PREFIX, 32);
  await em.execute(
    `insert into oauth_tokens (token_hash, kind, client_id, family_id, expires_at) values
       (?, 'access', ?, ?, now() + interval '${ACCESS_TOKEN_SECONDS} seconds'),
       (?, 'refresh', ?, ?, now() + interval '${REFRESH_TOKEN_DAYS} days')`,
    [hashOf(access), clientRowId, familyId, hashOf(refresh), clientRowId, familyId],
  );
  return {
    access_token: access,
    token_type: 'Bearer',
    expires_in: ACCESS_TOKEN_SECONDS,
    refresh_token: refresh,
  };
}

/** grant_type=client_credentials: the client's id and secret (compared in constant time) for a new token family. */
export async function grantClientCredentials(
  em: EntityManager,
  environment: Environment,
  clientId: string,
  clientSecret: string,
): Promise<TokenGrant> {
  const [client] = await em.execute<ClientRow[]>('select * from oauth_clients where client_id = ?', [
    clientId,
  ]);
  const expected = client?.secret_hash ?? hashOf(randomUUID());
  const genuine = timingSafeEqual(hashOf(clientSecret), expected);
  if (!client || !genuine || client.revoked_at || client.environment !== environment) {
    throw new OAuthError(
      'invalid_client',
      'Unknown client, wrong secret, revoked client, or another environment.',
    );
  }
  return issue(em, client.id, randomUUID());
}

interface TokenRow {
  kind: 'access' | 'refresh';
  client_id: string;
  family_id: string;
  expires_at: Date;
  used_at: Date | null;
  revoked_at: Date | null;
}

/**
 * grant_type=refresh_token: a new access token and a new refresh token; the old refresh token stops working.
 * Presenting a refresh token that was already used (after a short grace for a client's own retry) means it
 * leaked: the whole family is revoked, access tokens included.
 */
export async function grantRefreshToken(
  em: EntityManager,
  environment: Environment,
  refreshToken: string,
): Promise<TokenGrant> {
  // The family's revocation must commit even though the request fails, so the refusal is thrown after it.
  const outcome = await em.transactional(async (tx): Promise<TokenGrant | OAuthError> => {
    const [token] = await tx.execute<
      (TokenRow & { environment: Environment; client_revoked: Date | null })[]
    >(
      `select t.*, c.environment, c.revoked_at as client_revoked from oauth_tokens t
       join oauth_clients c on c.id = t.client_id
       where t.token_hash = ? and t.kind = 'refresh' for update of t`,
      [hashOf(refreshToken)],
    );
    const invalid = (why: string) => new OAuthError('invalid_grant', why);
    if (!token || token.environment !== environment) throw invalid('Unknown refresh token.');
    if (token.revoked_at || token.client_revoked) throw invalid('This refresh token was revoked.');
    if (token.used_at) {
      const age = (Date.now() - new Date(token.used_at).getTime()) / 1000;
      if (age > REUSE_GRACE_SECONDS) {
        await tx.execute(
          'update oauth_tokens set revoked_at = coalesce(revoked_at, now()) where family_id = ?',
          [token.family_id],
        );
        return invalid('This refresh token was already used: every token of its grant is revoked.');
      }
      throw invalid('This refresh token was just used; use the tokens that answer returned.');
    }
    if (new Date(token.expires_at) <= new Date()) throw invalid('This refresh token has expired.');
    await tx.execute('update oauth_tokens set used_at = now() where token_hash = ?', [hashOf(refreshToken)]);
    return issue(tx, token.client_id, token.family_id);
  });
  if (outcome instanceof OAuthError) throw outcome;
  return outcome;
}

export function looksLikeAccessToken(bearer: string): boolean {
  return bearer.startsWith(ACCESS_PREFIX);
}

/** The scope an access token acts for, or why it does not. */
export async function checkAccessToken(
  em: EntityManager,
  token: string,
): Promise<{ ok: true; clientId: string; companyId: string; environment: Environment } | { ok: false }> {
  const [row] = await em.execute<{ client_id: string; company_id: string; environment: Environment }[]>(
    `select c.client_id, c.company_id, c.environment from oauth_tokens t
     join oauth_clients c on c.id = t.client_id
     where t.token_hash = ? and t.kind = 'access' and t.revoked_at is null and c.revoked_at is null
       and t.expires_at > now()`,
    [hashOf(token)],
  );
  return row
    ? { ok: true, clientId: row.client_id, companyId: row.company_id, environment: row.environment }
    : { ok: false };
}
