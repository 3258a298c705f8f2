import type { EntityManager } from '@mikro-orm/postgresql';
import { CREDENTIALS_V2_CONTEXT, dppContextUrl } from '../credentials/contexts.ts';
import { proofTimestamp } from '../credentials/data-integrity.ts';
import { type CredentialIssuer, contentHash, uuidFromHash } from '../credentials/issuer.ts';
import { ensureStatusEntry } from '../credentials/status-entries.ts';
import { statusListUrl } from '../credentials/status-list.ts';
import { type ActorDids, credentialSubject } from './credential-subject.ts';
import type { CachedCredential, PassportRecord, ProvenanceEvent } from './lookup.ts';

export interface PassportCredentialDeps extends ActorDids {
  issuer: CredentialIssuer;
  publicBaseUrl: string;
}

const STORE = `insert into passport_credentials (passport_id, content_hash, credential, signed_at)
  values (?, ?, ?, ?)
  on conflict (passport_id) do update
    set content_hash = excluded.content_hash, credential = excluded.credential, signed_at = excluded.signed_at`;

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
  if (found.cached?.contentHash === hash) return found.cached.credential;
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
      await em.getConnection().execute(STORE, [passport.id, hash, text, now]);
      return text;
    })().finally(() => signing.delete(flight));
    signing.set(flight, pending);
  }
  return pending;
}
