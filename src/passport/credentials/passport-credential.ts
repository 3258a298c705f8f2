import { createHash } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Environment } from '../../platform/config/config.ts';
import { CREDENTIALS_V2_CONTEXT, dppContextUrl } from '../../standards/credentials/contexts.ts';
import { type CredentialIssuer, contentHash } from '../../standards/credentials/issuer.ts';
import type { SigningKey } from '../../standards/credentials/issuer-keys.ts';
import { ensureStatusEntry } from '../../standards/credentials/status-entries.ts';
import { statusListUrl } from '../../standards/credentials/status-list.ts';
import { levelDigitalLink, levelsOfItem } from '../levels/levels.ts';
import type { StoredCredential } from '../views/fast-lookups.ts';
import type { CachedCredential, PassportRecord, ProvenanceEvent } from '../views/lookup.ts';
import { type ActorDids, credentialSubject } from './credential-subject.ts';
import { passportCredentialSlot, restampPassportCredential, signedOnce } from './signed-store.ts';

export interface PassportCredentialDeps extends ActorDids {
  issuer: CredentialIssuer;
  publicBaseUrl: string;
}

/**
 * Bump when the credential is built differently: every stored credential is then checked again.
 * 2: provenance entries carry an `id` (their event's IRI), so signing stays cheap however many events there are.
 * 3: an item links its batch and model passports (idpp:batchPassport, idpp:modelPassport).
 */
const BUILDER_VERSION = 3;

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
  const [key, entry, levels] = await Promise.all([
    deps.issuer.signingKey(passport.environment),
    ensureStatusEntry(em, passport),
    levelsOfItem(em, passport.id),
  ]);
  const listUrl = statusListUrl(deps.publicBaseUrl, passport.environment, entry.list);
  const links = levels.map((level) => ({
    granularity: level.granularity,
    link: levelDigitalLink(deps.publicBaseUrl, level),
  }));
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
    credentialSubject: credentialSubject(passport, found.events, deps.publicBaseUrl, deps, links),
  };
  const hash = contentHash({ content, verificationMethod: key.verificationMethod });
  const stamp = inputsStamp(found.stamp, key, deps, passport.environment);
  const { cached } = found;
  if (cached?.contentHash === hash && cached.inputsStamp !== stamp) {
    await restampPassportCredential(em, passport.id, hash, stamp, cached.credential);
  }
  const { '@context': context, type, issuer, credentialStatus, credentialSubject: subject } = content;
  return signedOnce(
    em,
    passportCredentialSlot(passport.id, stamp),
    hash,
    async ({ id, validFrom, at }) => {
      const unsigned = {
        '@context': context,
        id,
        type,
        issuer,
        validFrom,
        credentialStatus,
        credentialSubject: subject,
      };
      return JSON.stringify(await deps.issuer.sign(key, unsigned, at));
    },
    // Read with the passport (findPassportWithHistory).
    cached ? { contentHash: cached.contentHash, forms: cached.credential } : null,
  );
}
