import { createHash, type KeyObject } from 'node:crypto';
import { ed25519Sign, ed25519Verify } from '../../standards/credentials/ed25519.ts';
import { canonicalJson } from '../../standards/ipfs/json.ts';
import type { EvidenceBundle, ManifestPart } from './bundle.ts';

/** Lower-case hex SHA-256 of a value's RFC 8785 canonical JSON. */
export function canonicalSha256(value: unknown): string {
  return createHash('sha256').update(canonicalJson(value), 'utf8').digest('hex');
}

/** Every part of the bundle by hash, in bundle order: what the manifest lists and signs. */
export function manifestParts(bundle: Omit<EvidenceBundle, 'manifest'>): ManifestPart[] {
  return [
    { part: 'passport', sha256: canonicalSha256(bundle.passport) },
    ...bundle.issuer.didDocuments.map((did, i) => ({ part: `did/${i}`, sha256: canonicalSha256(did) })),
    ...bundle.versions.map((version) => ({
      part: `versions/${version.number}`,
      sha256: canonicalSha256(version),
    })),
    ...bundle.credentials.map((credential, i) => ({
      part: `credentials/${i}`,
      sha256: canonicalSha256(credential),
    })),
    ...bundle.events.map((event, i) => ({
      part: `events/${String(event.payload.id ?? i)}`,
      sha256: canonicalSha256(event),
    })),
  ];
}

/** What the manifest's JWS signs (its payload): the passport, the issuer, when, and every part's hash. */
export function manifestPayload(
  bundle: Pick<EvidenceBundle, 'passport' | 'issuer'>,
  issuedAt: string,
  parts: ManifestPart[],
): Record<string, unknown> {
  return { dppId: bundle.passport.dppId, issuer: bundle.issuer.did, issuedAt, parts };
}

const b64 = (value: string | Uint8Array) => Buffer.from(value).toString('base64url');

/** A compact JWS (EdDSA, RFC 8037) of the payload's canonical JSON, `kid` the signing verification method. */
export function signJws(privateKey: KeyObject, kid: string, payload: unknown): string {
  const input = `${b64(JSON.stringify({ alg: 'EdDSA', typ: 'JWT', kid }))}.${b64(canonicalJson(payload))}`;
  return `${input}.${b64(ed25519Sign(privateKey, Buffer.from(input, 'ascii')))}`;
}

export interface OpenedJws {
  header: { alg?: string; kid?: string; typ?: string };
  payload: unknown;
  /** Whether the signature verifies with `publicKey`. */
  verifies(publicKey: Uint8Array): boolean;
}

/** Splits a compact JWS (undefined when it is not one); the signature is checked by `verifies`. */
export function openJws(jws: string): OpenedJws | undefined {
  const [header, payload, signature, extra] = jws.split('.');
  if (!header || !payload || signature === undefined || extra !== undefined) return undefined;
  try {
    const parsedHeader = JSON.parse(Buffer.from(header, 'base64url').toString('utf8'));
    const parsedPayload = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    const input = Buffer.from(`${header}.${payload}`, 'ascii');
    const bytes = Buffer.from(signature, 'base64url');
    return {
      header: parsedHeader,
      payload: parsedPayload,
      verifies: (publicKey) => parsedHeader.alg === 'EdDSA' && ed25519Verify(publicKey, input, bytes),
    };
  } catch {
    return undefined;
  }
}
