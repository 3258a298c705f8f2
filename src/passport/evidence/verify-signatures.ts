import { documentLoaderFor } from '../../standards/credentials/contexts.ts';
import { type DataIntegrityProof, verifyEddsaRdfc2022 } from '../../standards/credentials/data-integrity.ts';
import { canonicalJson } from '../../standards/ipfs/json.ts';
import type { EvidenceBundle, EvidenceCredential } from './bundle.ts';
import { type Check, fail, pass } from './checks.ts';
import { issuerKeyAt, keyNameOf } from './issuer-keys-at.ts';
import { manifestParts, manifestPayload, openJws } from './manifest.ts';

/**
 * The manifest: its JWS is the issuer's (a key the DID document of its time lists), it signs exactly the
 * listed parts, and every part of the bundle is listed with its hash (a part edited, added or removed fails).
 * `trusted`: Multikeys the verifier got from the issuer out of band; when given, the signing key must be one.
 */
export function verifyManifest(bundle: EvidenceBundle, trusted: readonly string[]): Check[] {
  const name = 'manifest signature';
  const { manifest, issuer } = bundle;
  const opened = openJws(manifest.jws);
  if (!opened) return [fail(name, 'not a compact JWS')];
  const kid = opened.header.kid ?? '';
  const key = issuerKeyAt(issuer.didDocuments, issuer.did, kid, new Date(manifest.issuedAt));
  const checks: Check[] = [];
  if (!key) {
    checks.push(
      fail(
        name,
        `signed by ${kid || 'no key'}: not a key of the issuer’s DID document at ${manifest.issuedAt}`,
      ),
    );
  } else if (!opened.verifies(key)) {
    checks.push(fail(name, `the signature does not verify with ${keyNameOf(kid)}`));
  } else if (
    canonicalJson(opened.payload) !==
    canonicalJson(manifestPayload(bundle, manifest.issuedAt, manifest.parts))
  ) {
    checks.push(fail(name, 'the signed manifest is not the manifest in the bundle'));
  } else if (trusted.length > 0 && !trusted.includes(keyNameOf(kid))) {
    checks.push(fail(name, `signed by ${keyNameOf(kid)}, which is not among the trusted issuer keys`));
  } else {
    checks.push(pass(name, `${issuer.did}, key ${keyNameOf(kid)}`));
  }
  const listed = new Map(manifest.parts.map((part) => [part.part, part.sha256]));
  const actual = manifestParts(bundle);
  const problems = [
    ...actual
      .filter((part) => listed.get(part.part) !== part.sha256)
      .map((part) => (listed.has(part.part) ? `${part.part} changed` : `${part.part} not listed`)),
    ...[...listed.keys()]
      .filter((part) => !actual.some((a) => a.part === part))
      .map((part) => `${part} missing`),
  ];
  checks.push(
    problems.length === 0
      ? pass('manifest parts', `${actual.length} parts, each with the hash the manifest lists`)
      : fail('manifest parts', problems.join('; ')),
  );
  return checks;
}

/** Each credential's signature against the issuer's DID document of the time it was signed. */
export async function verifyCredentials(bundle: EvidenceBundle): Promise<Check[]> {
  const loader = documentLoaderFor(bundle.issuer.publicBaseUrl);
  return Promise.all(
    bundle.credentials.map(async (credential, i) => {
      const name = `credential ${i} (${credential.kind}, ${credential.format}, version ${credential.versionNumber ?? '?'})`;
      try {
        const problem = await credentialProblem(bundle, credential, loader);
        return problem ? fail(name, problem) : pass(name, `signed by the issuer at ${credential.signedAt}`);
      } catch (error) {
        return fail(name, `unreadable: ${(error as Error).message}`);
      }
    }),
  );
}

/** Why the credential is not the issuer's, signed with a key of its time (undefined: it is). */
async function credentialProblem(
  bundle: EvidenceBundle,
  credential: EvidenceCredential,
  loader: ReturnType<typeof documentLoaderFor>,
): Promise<string | undefined> {
  const { did, didDocuments } = bundle.issuer;
  let method: string;
  let verifies: (key: Uint8Array) => Promise<boolean> | boolean;
  let issuerOf: unknown;
  if (credential.format === 'vc-jwt') {
    const opened = openJws(credential.credential);
    if (!opened) return 'not a compact JWS';
    method = opened.header.kid ?? '';
    verifies = (key) => opened.verifies(key);
    issuerOf = (opened.payload as { issuer?: unknown }).issuer;
  } else {
    const document = JSON.parse(credential.credential) as Record<string, unknown> & {
      '@context': unknown;
      proof: DataIntegrityProof;
    };
    method = document.proof?.verificationMethod ?? '';
    verifies = (key) => verifyEddsaRdfc2022(document, key, loader);
    issuerOf = document.issuer;
  }
  const issuerId = typeof issuerOf === 'object' && issuerOf ? (issuerOf as { id?: unknown }).id : issuerOf;
  if (issuerId !== did) return `issued by ${String(issuerId)}, not ${did}`;
  const key = issuerKeyAt(didDocuments, did, method, new Date(credential.signedAt));
  if (!key)
    return `signed by ${method || 'no key'}: not a key of the issuer’s DID document at ${credential.signedAt}`;
  return (await verifies(key)) ? undefined : `the signature does not verify with ${keyNameOf(method)}`;
}
