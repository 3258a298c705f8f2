import { CREDENTIALS_V2_CONTEXT, dppContextUrl } from '../../standards/credentials/contexts.ts';
import { proofTimestamp } from '../../standards/credentials/data-integrity.ts';
import { contentHash, uuidFromHash } from '../../standards/credentials/issuer.ts';
import { type LevelPassport, levelDigitalLink } from '../levels/levels.ts';
import type { PublicLevel } from '../views/level-view.ts';
import { levelUntpProduct } from './level-untp.ts';
import type { PassportCredentialDeps } from './passport-credential.ts';
import type { Signing, UntpForms } from './signed-store.ts';
import { signUntp, untpEnvelope } from './untp-credential.ts';

/**
 * The credentials of a model or batch passport (docs/granularity.md "On the resolver"): the W3C VC
 * (`format=vc`) and the UNTP DigitalProductPassport (`format=untp`, `format=vc-jwt`), signed by the issuer of the
 * items' credentials. A level has no status list entry (its status is its EN 18223 `dppStatus`, stated in the
 * credential), so nothing else is stored: each credential is issued over the level's **current version** and
 * dated by it (`validFrom` and the proof's `created` are the version's time, `id` is derived from the content's
 * hash). Ed25519 signatures are deterministic, so every process and every read answers the same bytes for one
 * version, and a new version issues a new credential.
 */
export interface LevelFacts {
  view: PublicLevel;
  /** A batch's model passport (same company), if any. */
  model: LevelPassport | undefined;
  companyName: string;
}

/** The version's time: when the level's current document was recorded. */
function versionTime(view: PublicLevel): Date {
  const at = new Date(String(view.header.lastUpdated ?? ''));
  return Number.isNaN(at.getTime()) ? view.level.updatedAt : at;
}

// Signed forms by content hash, in this process (each is the same wherever it is signed): reads spare signing.
const signed = new Map<string, Promise<unknown>>();
const KEPT = 512;

function signedByVersion<Forms>(hash: string, at: Date, sign: (signing: Signing) => Promise<Forms>) {
  let forms = signed.get(hash) as Promise<Forms> | undefined;
  if (!forms) {
    forms = sign({ id: `urn:uuid:${uuidFromHash(hash)}`, validFrom: proofTimestamp(at), at });
    forms.catch(() => signed.delete(hash));
    if (signed.size >= KEPT) signed.delete(signed.keys().next().value!);
    signed.set(hash, forms);
  }
  return forms;
}

/** `credentialSubject` of a level's W3C VC: its identity, granularity, status, and a batch's model passport. */
export function levelCredentialSubject(facts: LevelFacts, publicBaseUrl: string): Record<string, unknown> {
  const { view, model } = facts;
  const { level, header } = view;
  const link = levelDigitalLink(publicBaseUrl, level);
  return {
    id: link,
    type: 'Product',
    'dpp:upi': link,
    'dpp:modelIdentifier': level.gtin,
    ...(level.lot === null ? {} : { 'dpp:batchNumber': level.lot }),
    'schema:name': view.name,
    'idpp:granularity': level.granularity,
    'idpp:digitalProductPassportId': header.digitalProductPassportId,
    'idpp:dppStatus': level.dppStatus,
    'dpp:economicOperator': {
      type: 'EconomicOperator',
      'schema:name': facts.companyName,
      ...(/^\d{13}$/.test(String(header.economicOperatorId))
        ? { 'idpp:gln': header.economicOperatorId }
        : {}),
    },
    // Typed links upward only: a model names no items or batches (they are found by key, and are many).
    ...(model ? { 'idpp:modelPassport': { id: levelDigitalLink(publicBaseUrl, model) } } : {}),
  };
}

/** format=vc of a model or batch passport: a W3C VC 2.0 with an eddsa-rdfc-2022 proof, as JSON text. */
export async function levelCredentialText(deps: PassportCredentialDeps, facts: LevelFacts): Promise<string> {
  const key = await deps.issuer.signingKey(facts.view.level.environment);
  const content = {
    '@context': [CREDENTIALS_V2_CONTEXT, dppContextUrl(deps.publicBaseUrl)],
    type: ['VerifiableCredential', 'DigitalProductPassport'],
    issuer: key.did,
    credentialSubject: levelCredentialSubject(facts, deps.publicBaseUrl),
  };
  // The version's time is in the hash: each version is issued its own credential (its own id).
  const at = versionTime(facts.view);
  const hash = contentHash({ level: content, at, verificationMethod: key.verificationMethod });
  return signedByVersion(hash, at, async ({ id, validFrom, at }) => {
    const { '@context': context, type, issuer, credentialSubject } = content;
    const unsigned = { '@context': context, id, type, issuer, validFrom, credentialSubject };
    return JSON.stringify(await deps.issuer.sign(key, unsigned, at));
  });
}

/**
 * format=untp and vc-jwt of a model or batch passport (throws UntpUnavailable when the level's data lacks what
 * UNTP requires: level-untp.ts).
 */
export async function levelUntpForms(deps: PassportCredentialDeps, facts: LevelFacts): Promise<UntpForms> {
  const key = await deps.issuer.signingKey(facts.view.level.environment);
  const { product, contexts } = levelUntpProduct(facts, deps.publicBaseUrl);
  const content = untpEnvelope(deps, key, product, undefined, contexts);
  const at = versionTime(facts.view);
  const hash = contentHash({ levelUntp: content, at, verificationMethod: key.verificationMethod });
  return signedByVersion(hash, at, signUntp(deps, key, content));
}
