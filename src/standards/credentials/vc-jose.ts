import { ed25519Sign } from './ed25519.ts';
import type { SigningKey } from './issuer-keys.ts';

/** The media type of a credential secured with JOSE (W3C VC-JOSE-COSE, section 3.1.1). */
export const VC_JWT_MEDIA_TYPE = 'application/vc+jwt';

function base64url(value: string | Uint8Array): string {
  return Buffer.from(value).toString('base64url');
}

/**
 * Secures an unsecured credential with JOSE as W3C VC-JOSE-COSE describes it: the credential itself is the JWS
 * payload (no `vc` claim wrapper), the protected header names the media type (`typ: vc+jwt`), the algorithm
 * (EdDSA, RFC 8037: the issuer's Ed25519 key) and the key as a verification method of the issuer's did:web
 * document (`kid`). Compact serialisation.
 */
export function vcJwt(key: SigningKey, credential: Record<string, unknown>): string {
  const header = { alg: 'EdDSA', typ: 'vc+jwt', kid: key.verificationMethod };
  const signingInput = `${base64url(JSON.stringify(header))}.${base64url(JSON.stringify(credential))}`;
  return `${signingInput}.${base64url(ed25519Sign(key.privateKey, Buffer.from(signingInput, 'ascii')))}`;
}
