import { createHash } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Environment } from '../../platform/config/config.ts';
import { CREDENTIALS_V2_CONTEXT, dppContextUrl } from '../../standards/credentials/contexts.ts';
import { proofTimestamp } from '../../standards/credentials/data-integrity.ts';
import { type CredentialIssuer, contentHash, uuidFromHash } from '../../standards/credentials/issuer.ts';
import type { SigningKey } from '../../standards/credentials/issuer-keys.ts';
import { ensureStatusEntry } from '../../standards/credentials/status-entries.ts';
import { statusListUrl } from '../../standards/credentials/status-list.ts';
import { etagOf } from '../views/etag.ts';
import type { StoredCredential } from '../views/fast-lookups.ts';
import type { CachedCredential, PassportRecord, ProvenanceEvent } from '../views/lookup.ts';
import { type ActorDids, credentialSubject } from './credential-subject.ts';

export interface PassportCredentialDeps extends ActorDids {
  issuer: CredentialIssuer;
  publicBaseUrl: string;
}

/**
 * A content hash stored already is never replaced by a second signature of itself: API processes that sign the
 * same new version at once all answer the first one's bytes (STORED_TEXT read back after the insert).
 */
const STORE = `insert into passport_credentials (passport_id, content_hash, credential, signed_at, inputs_stamp, etag)
  values (?, ?, ?, ?, ?, ?)
  on conflict (passport_id) do update
    set content_hash = excluded.content_hash, credential = excluded.credential, signed_at = excluded.signed_at,
      inputs_stamp = excluded.inputs_stamp, etag = excluded.etag
    where passport_credentials.content_hash <> excluded.content_hash`;
const STORED_TEXT = 'select credential from passport_credentials where passport_id = ? and content_hash = ?';
const RESTAMP = `update passport_credentials set inputs_stamp = ?, etag = ?
  where passport_id = ? and content_hash = ?`;

/**
 * Bump when the credential is built differently: every stored credential is then checked again.
 * 2: provenance entries carry an `id` (their event's IRI), so signing stays cheap however many events there are.
 */
const BUILDER_VERSION = 2;

/**
 * The stamp a stored credential carries: its inputs' stamp (INPUTS_STAMP_SQL), the key that signed it and the
 * settings that shape it (public base URL, chain id, custody secret, this builder's version).
 */
export function inputsStamp(
  stamp: string,
  key: SigningKey,
  deps: PassportCredentialDeps,
  environment: Environment,
): string {
  return [stamp, key.verificationMethod, settingsOf(deps, environment)].join('|');
}

const settings = new WeakMap<PassportCredentialDeps, Partial<Record<Environment, string>>>();

function settingsOf(deps: PassportCredentialDeps, environment: Environment): string {
  let known = settings.get(deps);
  if (!known) {
    known = {};
    settings.set(deps, known);
  }
  known[environment] ??= [
    BUILDER_VERSION,
    deps.publicBaseUrl,
    deps.chainIds[environment],
    createHash('sha256')
      .update(deps.custodyMasterSecret ?? '')
      .digest('hex')
      .slice(0, 16),
  ].join('|');
  return known[environment];
}

/**
 * The stored credential when nothing it was built from has changed since (the hot path: one statement, no
 * rebuilding); undefined when it must be built again (which signs only if its content changed).
 */
export async function storedCredentialIfCurrent(
  stored: StoredCredential,
  environment: Environment,
  deps: PassportCredentialDeps,
): Promise<string | undefined> {
  if (!stored.credential || !stored.inputsStamp) return undefined;
  const key = await deps.issuer.signingKey(environment);
  return stored.inputsStamp === inputsStamp(stored.stamp, key, deps, environment)
    ? stored.credential
    : undefined;
}

// Requests for a version being signed wait for that signature instead of signing it again.
const signing = new Map<string, Promise<string>>();

/**
 * The passport's verifiable credential as JSON text. Everything it states (subject, status entry, issuer key) is
 * hashed; a version already signed is served as stored, a new version (an event, a status change, a tap that
 * changed verificationCount, a new issuer key) is signed once and stored. `id` is derived from that hash and
 * `validFrom` is when the version was signed.
 */
export async function passportCredentialText(
  em: EntityManager,
  deps: PassportCredentialDeps,
  found: {
    passport: PassportRecord;
    events: readonly ProvenanceEvent[];
    /** INPUTS_STAMP_SQL, read with the passport and events. */
    stamp: string;
    cached: CachedCredential | undefined;
  },
): Promise<string> {
  const { passport } = found;
  const [key, entry] = await Promise.all([
    deps.issuer.signingKey(passport.environment),
    ensureStatusEntry(em, passport),
  ]);
  const listUrl = statusListUrl(deps.publicBaseUrl, passport.environment, entry.list);
  const content = {
    '@context': [CREDENTIALS_V2_CONTEXT, dppContextUrl(deps.publicBaseUrl)],
    type: ['VerifiableCredential', 'DigitalProductPassport'],
    issuer: key.did,
    credentialStatus: {
      id: `${listUrl}#${entry.index}`,
      type: 'BitstringStatusListEntry',
      statusPurpose: 'revocation',
      statusListIndex: String(entry.index),
      statusListCredential: listUrl,
    },
    credentialSubject: credentialSubject(passport, found.events, deps.publicBaseUrl, deps),
  };
  const hash = contentHash({ content, verificationMethod: key.verificationMethod });
  const stamp = inputsStamp(found.stamp, key, deps, passport.environment);
  if (found.cached?.contentHash === hash) {
    if (found.cached.inputsStamp !== stamp) {
      await em.getConnection().execute(RESTAMP, [stamp, etagOf(found.cached.credential), passport.id, hash]);
    }
    return found.cached.credential;
  }
  const flight = `${passport.id}:${hash}`;
  let pending = signing.get(flight);
  if (!pending) {
    pending = (async () => {
      const now = new Date();
      const { '@context': context, type, issuer, credentialStatus, credentialSubject: subject } = content;
      const unsigned = {
        '@context': context,
        id: `urn:uuid:${uuidFromHash(hash)}`,
        type,
        issuer,
        validFrom: proofTimestamp(now),
        credentialStatus,
        credentialSubject: subject,
      };
      const text = JSON.stringify(await deps.issuer.sign(key, unsigned, now));
      const connection = em.getConnection();
      await connection.execute(STORE, [passport.id, hash, text, now, stamp, etagOf(text)]);
      const [stored] = await connection.execute<{ credential: string }[]>(STORED_TEXT, [passport.id, hash]);
      return stored?.credential ?? text;
    })().finally(() => signing.delete(flight));
    signing.set(flight, pending);
  }
  return pending;
}
