import { ed25519PublicKeyFromMultikey } from '../../standards/credentials/multibase.ts';
import type { DatedDidDocument } from './bundle.ts';

/**
 * The raw Ed25519 key a verification method id names in the issuer's DID document valid at `at` (undefined:
 * the document of that time does not list it as an assertion method — a signature not the issuer's).
 */
export function issuerKeyAt(
  documents: readonly DatedDidDocument[],
  did: string,
  verificationMethod: string,
  at: Date,
): Uint8Array | undefined {
  const dated = documents.find(
    (d) =>
      new Date(d.validFrom) <= at &&
      (d.validUntil === null || at < new Date(d.validUntil)) &&
      d.document.id === did,
  );
  if (!dated || !verificationMethod.startsWith(`${did}#`)) return undefined;
  const assertion = dated.document.assertionMethod;
  if (!Array.isArray(assertion) || !assertion.includes(verificationMethod)) return undefined;
  const methods = Array.isArray(dated.document.verificationMethod) ? dated.document.verificationMethod : [];
  const method = methods.find((m: { id?: string }) => m?.id === verificationMethod) as
    | { type?: string; controller?: string; publicKeyMultibase?: string }
    | undefined;
  if (method?.type !== 'Multikey' || method.controller !== did || !method.publicKeyMultibase)
    return undefined;
  try {
    return ed25519PublicKeyFromMultikey(method.publicKeyMultibase);
  } catch {
    return undefined;
  }
}

/** The Multikey of a verification method id (`did#z6Mk…`): what an operator compares with the published did.json. */
export const keyNameOf = (verificationMethod: string) =>
  verificationMethod.split('#')[1] ?? verificationMethod;
