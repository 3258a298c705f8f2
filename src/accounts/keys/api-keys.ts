import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Environment } from '../../platform/config/config.ts';
import { ApiKey } from '../../platform/db/entities/index.ts';
import { ownedBy, type TenantScope } from '../../platform/db/tenant-scope.ts';
import { apiKeyMatches, generateApiKey, parseApiKey } from './api-key-format.ts';
import { type RecentKey, recentKeys } from './recent-keys.ts';

export interface ApiKeySummary {
  id: string;
  name: string;
  prefix: string;
  createdAt: string;
}

export interface ApiKeyDetails extends ApiKeySummary {
  environment: Environment;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

export function summarize(key: ApiKey): ApiKeySummary {
  return { id: key.id, name: key.name, prefix: key.prefix, createdAt: key.createdAt.toISOString() };
}

export function describe(key: ApiKey): ApiKeyDetails {
  return {
    ...summarize(key),
    environment: key.environment,
    lastUsedAt: key.lastUsedAt?.toISOString() ?? null,
    revokedAt: key.revokedAt?.toISOString() ?? null,
  };
}

/** Creates a key in the scope's environment. The returned `key` is the only time the secret exists in clear. */
export async function createApiKey(
  em: EntityManager,
  scope: TenantScope,
  name: string,
): Promise<{ apiKey: ApiKey; key: string }> {
  const generated = generateApiKey(scope.environment);
  const apiKey = em.create(ApiKey, {
    id: randomUUID(),
    ...ownedBy(scope),
    name,
    prefix: generated.prefix,
    lookupId: generated.lookupId,
    secretHash: generated.secretHash,
    createdAt: new Date(),
  });
  await em.flush();
  return { apiKey, key: generated.key };
}

/** Active keys of the scope (the entity manager must be scoped), newest first. */
export async function listApiKeys(em: EntityManager): Promise<ApiKey[]> {
  return em.find(ApiKey, { revokedAt: null }, { orderBy: { createdAt: 'desc', id: 'asc' } });
}

export async function findApiKey(em: EntityManager, id: string): Promise<ApiKey | null> {
  return em.findOne(ApiKey, { id });
}

/** Revokes a key of the scope. Revoking twice keeps the first revocation time. */
export async function revokeApiKey(em: EntityManager, id: string): Promise<ApiKey | null> {
  const key = await em.findOne(ApiKey, { id });
  if (!key) return null;
  key.revokedAt ??= new Date();
  await em.flush();
  recentKeys.forget(key.lookupId);
  return key;
}

/** What authentication needs of a key: whose it is and where it may act. */
export type AuthenticatedApiKey = Pick<ApiKey, 'id' | 'companyId' | 'environment'>;

export type ApiKeyCheck =
  | { ok: true; apiKey: AuthenticatedApiKey }
  | { ok: false; reason: 'malformed' | 'unknown' | 'revoked' }
  | { ok: false; reason: 'environment_mismatch'; keyEnvironment: Environment };

interface ApiKeyRow {
  id: string;
  company_id: string;
  environment: Environment;
  secret_hash: string;
  revoked: boolean;
  /** last_used_at is unset or more than a minute old: stamp it. */
  stamp_due: boolean;
}

/**
 * Resolves a presented key. This is the one lookup that crosses tenants (the key itself names its tenant):
 * it reads `api_keys` by its unique lookup id with plain SQL, outside the tenant-filtered entity manager.
 * A key that authenticated in the last two seconds on this process is not read again (recent-keys.ts): a
 * revocation applies at once on the process that made it and within two seconds on the others. The secret is
 * compared with the stored hash on every call. `last_used_at` is stamped at most once a minute per key, and the
 * update is only sent when the row says a stamp is due.
 */
export async function checkApiKey(
  em: EntityManager,
  presented: string,
  environment: Environment,
): Promise<ApiKeyCheck> {
  const parsed = parseApiKey(presented);
  if (!parsed) return { ok: false, reason: 'malformed' };
  const recent = recentKeys.get(parsed.lookupId);
  if (recent && apiKeyMatches(presented, recent.secretHash)) return admitted(recent, environment);
  const connection = em.getConnection();
  const [row] = await connection.execute<ApiKeyRow[]>(
    `select id, company_id, environment, secret_hash, revoked_at is not null as revoked,
       (last_used_at is null or last_used_at < now() - interval '1 minute') as stamp_due
     from api_keys where lookup_id = ?`,
    [parsed.lookupId],
  );
  if (!row || !apiKeyMatches(presented, row.secret_hash)) return { ok: false, reason: 'unknown' };
  if (row.revoked) return { ok: false, reason: 'revoked' };
  if (row.stamp_due && row.environment === environment) {
    await connection.execute(
      `update api_keys set last_used_at = now() where id = ? and (last_used_at is null or last_used_at < now() - interval '1 minute')`,
      [row.id],
    );
  }
  const key = {
    id: row.id,
    companyId: row.company_id,
    environment: row.environment,
    secretHash: row.secret_hash,
  };
  recentKeys.keep(parsed.lookupId, key);
  return admitted(key, environment);
}

function admitted(key: RecentKey, environment: Environment): ApiKeyCheck {
  if (key.environment !== environment) {
    return { ok: false, reason: 'environment_mismatch', keyEnvironment: key.environment };
  }
  return { ok: true, apiKey: { id: key.id, companyId: key.companyId, environment: key.environment } };
}
