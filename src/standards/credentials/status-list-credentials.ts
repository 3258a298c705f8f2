import type { EntityManager } from '@mikro-orm/postgresql';
import type { Environment } from '../../platform/config/config.ts';
import { DomainError } from '../../platform/errors.ts';
import { proofTimestamp } from './data-integrity.ts';
import { type CredentialIssuer, contentHash } from './issuer.ts';
import { revokedIndexes } from './status-entries.ts';
import { encodeStatusList, statusListCredential, statusListUrl } from './status-list.ts';

const CACHED = `select content_hash, credential from status_list_credentials where environment = ? and list = ?`;
// A content hash stored already is never replaced by a second signature of itself: API processes that sign the
// same new list at once all answer the first one's bytes (read back after the insert).
const STORE = `insert into status_list_credentials (environment, list, content_hash, credential, signed_at)
  values (?, ?, ?, ?, ?)
  on conflict (environment, list) do update
    set content_hash = excluded.content_hash, credential = excluded.credential, signed_at = excluded.signed_at
    where status_list_credentials.content_hash <> excluded.content_hash`;
const IN_USE = `select exists (select 1 from passports where environment = ? and status_list = ?) as used`;

/**
 * The signed BitstringStatusListCredential of one list, as JSON text. It is signed again only when its content
 * changes (a revocation, a new issuer key) and otherwise served from the database, so a revocation is visible to
 * the next verifier that fetches the list. A list no passport uses → 404.
 */
export async function statusListCredentialText(
  em: EntityManager,
  issuer: CredentialIssuer,
  publicBaseUrl: string,
  environment: Environment,
  list: number,
): Promise<string> {
  const connection = em.getConnection();
  const [inUse] = await connection.execute<{ used: boolean }[]>(IN_USE, [environment, list]);
  if (!inUse?.used) {
    throw new DomainError('not_found', 'status_list_not_found', `No status list ${list} in ${environment}.`);
  }
  const [revoked, key] = await Promise.all([
    revokedIndexes(em, environment, list),
    issuer.signingKey(environment),
  ]);
  const url = statusListUrl(publicBaseUrl, environment, list);
  const hash = contentHash({ url, revoked, verificationMethod: key.verificationMethod });
  const [cached] = await connection.execute<{ content_hash: string; credential: string }[]>(CACHED, [
    environment,
    list,
  ]);
  if (cached?.content_hash === hash) return cached.credential;
  const now = new Date();
  const unsigned = statusListCredential({
    url,
    issuer: key.did,
    validFrom: proofTimestamp(now),
    encodedList: encodeStatusList(revoked),
  });
  const credential = JSON.stringify(await issuer.sign(key, unsigned, now));
  await connection.execute(STORE, [environment, list, hash, credential, now]);
  const [stored] = await connection.execute<{ content_hash: string; credential: string }[]>(CACHED, [
    environment,
    list,
  ]);
  return stored?.content_hash === hash ? stored.credential : credential;
}
