import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Environment } from '../config/config.ts';
import { ApiKey } from '../db/entities/index.ts';
import { ownedBy, TENANT_FILTER, type TenantScope } from '../db/tenant-scope.ts';
import { apiKeyMatches, generateApiKey, parseApiKey } from './api-key-format.ts';

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
  return key;
}

export type ApiKeyCheck =
  | { ok: true; apiKey: ApiKey }
  | { ok: false; reason: 'malformed' | 'unknown' | 'revoked' }
  | { ok: false; reason: 'environment_mismatch'; keyEnvironment: Environment };

/**
 * Resolves a presented key. This is the one lookup that crosses tenants (the key itself names its tenant),
 * so it disables the tenant filter explicitly.
 */
export async function checkApiKey(
  em: EntityManager,
  presented: string,
  environment: Environment,
): Promise<ApiKeyCheck> {
  const parsed = parseApiKey(presented);
  if (!parsed) return { ok: false, reason: 'malformed' };
  const apiKey = await em.findOne(
    ApiKey,
    { lookupId: parsed.lookupId },
    { filters: { [TENANT_FILTER]: false } },
  );
  if (!apiKey || !apiKeyMatches(presented, apiKey.secretHash)) return { ok: false, reason: 'unknown' };
  if (apiKey.revokedAt) return { ok: false, reason: 'revoked' };
  if (apiKey.environment !== environment) {
    return { ok: false, reason: 'environment_mismatch', keyEnvironment: apiKey.environment };
  }
  await em
    .getConnection()
    .execute(
      `update api_keys set last_used_at = now() where id = ? and (last_used_at is null or last_used_at < now() - interval '1 minute')`,
      [apiKey.id],
    );
  return { ok: true, apiKey };
}
