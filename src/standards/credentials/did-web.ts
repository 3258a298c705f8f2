import type { Environment } from '../../platform/config/config.ts';

/**
 * The issuer of each environment's credentials, as a did:web on our own host (PUBLIC_BASE_URL): live is
 * `did:web:{host}` (its document at /.well-known/did.json, or /did.json below a path), test is
 * `did:web:{host}:test` (at /test/did.json). Separate DIDs keep a test credential from ever passing for a live
 * one. A port is percent-encoded (`did:web:localhost%3A3000`), path segments become `:`-separated.
 */
export function issuerDid(publicBaseUrl: string, environment: Environment): string {
  const url = new URL(publicBaseUrl);
  const segments = url.pathname.split('/').filter((segment) => segment !== '');
  const host = url.port ? `${url.hostname}%3A${url.port}` : url.hostname;
  const did = ['did:web', host, ...segments.map(encodeURIComponent)].join(':');
  return environment === 'live' ? did : `${did}:${environment}`;
}

/** The paths (on our app) where the DID documents are served. */
export const DID_DOCUMENT_PATHS: Record<Environment, readonly string[]> = {
  live: ['/.well-known/did.json', '/did.json'],
  test: ['/test/did.json'],
};

export interface PublishedKey {
  publicKeyMultibase: string;
  retired: boolean;
}

/** The verification method id of a key: the DID with the key's own Multikey as fragment (stable, unique). */
export function verificationMethodId(did: string, publicKeyMultibase: string): string {
  return `${did}#${publicKeyMultibase}`;
}

/**
 * The DID document: every key that has signed for this environment, current and retired, as Multikey
 * verification methods allowed for assertions, so credentials signed before a rotation still verify. The
 * current key is listed first.
 */
export function didDocument(did: string, keys: readonly PublishedKey[]): Record<string, unknown> {
  const ordered = [...keys].sort((a, b) => Number(a.retired) - Number(b.retired));
  const ids = ordered.map((key) => verificationMethodId(did, key.publicKeyMultibase));
  return {
    '@context': ['https://www.w3.org/ns/did/v1', 'https://w3id.org/security/multikey/v1'],
    id: did,
    verificationMethod: ordered.map((key, i) => ({
      id: ids[i],
      type: 'Multikey',
      controller: did,
      publicKeyMultibase: key.publicKeyMultibase,
    })),
    assertionMethod: ids,
  };
}
