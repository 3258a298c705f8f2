import type { EntityManager } from '@mikro-orm/postgresql';
import { proofTimestamp } from '../../standards/credentials/data-integrity.ts';
import { uuidFromHash } from '../../standards/credentials/issuer.ts';
import type { SigningKey } from '../../standards/credentials/issuer-keys.ts';
import { vcJwt } from '../../standards/credentials/vc-jose.ts';
import type { PassportCredentialDeps } from './passport-credential.ts';
import type { UntpForms } from './untp-credential.ts';

/**
 * Where a credential's signed forms are kept (one row per passport, or per passport and audience): `read` the
 * row of a content hash, `write` ours (an upsert that replaces only a row of another hash).
 */
export interface SignedFormsTable {
  /** Select `data_integrity, jwt` of the row; parameters: `key` then the hash. */
  read: string;
  /** Insert or replace the row; parameters: `key`, the hash, data_integrity, jwt, signed_at. */
  write: string;
  /** The row's key columns' values (passport id, and the audience for variants). */
  key: readonly unknown[];
}

/** Requests of this process for a content hash being signed wait for that signature instead of signing again. */
const signing = new Map<string, Promise<UntpForms>>();

/**
 * Both secured forms of `content`, signed once for every API process: the stored forms of this content hash if
 * a process signed it before, else ours, stored; when another process stored the hash first, its bytes (read
 * back after our write), so replicas converge on the first signature.
 */
export async function signedOnce(
  em: EntityManager,
  deps: PassportCredentialDeps,
  key: SigningKey,
  content: Record<string, unknown> & { '@context': string[] },
  hash: string,
  table: SignedFormsTable,
): Promise<UntpForms> {
  const stored = await storedForms(em, table, hash);
  if (stored) return stored;
  const flight = `${table.write}:${table.key.join(':')}:${hash}`;
  let pending = signing.get(flight);
  if (!pending) {
    pending = signAndStore(em, deps, key, content, hash, table).finally(() => signing.delete(flight));
    signing.set(flight, pending);
  }
  return pending;
}

async function storedForms(em: EntityManager, table: SignedFormsTable, hash: string) {
  const [row] = await em
    .getConnection()
    .execute<{ data_integrity: string; jwt: string }[]>(table.read, [...table.key, hash]);
  return row ? { dataIntegrity: row.data_integrity, jwt: row.jwt } : undefined;
}

async function signAndStore(
  em: EntityManager,
  deps: PassportCredentialDeps,
  key: SigningKey,
  content: Record<string, unknown> & { '@context': string[] },
  hash: string,
  table: SignedFormsTable,
): Promise<UntpForms> {
  const now = new Date();
  const { '@context': context, ...rest } = content;
  const unsecured = {
    '@context': context,
    id: `urn:uuid:${uuidFromHash(hash)}`,
    ...rest,
    validFrom: proofTimestamp(now),
  };
  const secured = await deps.issuer.sign(key, unsecured, now);
  const forms = { dataIntegrity: JSON.stringify(secured), jwt: vcJwt(key, unsecured) };
  await em.getConnection().execute(table.write, [...table.key, hash, forms.dataIntegrity, forms.jwt, now]);
  // Ours, the first process's (same hash), or — when a newer version replaced the row meanwhile — ours.
  return (await storedForms(em, table, hash)) ?? forms;
}
