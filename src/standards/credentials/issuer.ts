import { createHash } from 'node:crypto';
import type { DocumentLoader } from 'jsonld';
import type { Environment } from '../../platform/config/config.ts';
import { canonicalJson } from '../ipfs/json.ts';
import { documentLoaderFor } from './contexts.ts';
import { type DataIntegrityProof, signEddsaRdfc2022 } from './data-integrity.ts';
import type { IssuerKeyring, SigningKey } from './issuer-keys.ts';

/** SHA-256 (hex) of the RFC 8785 canonical JSON of a value: what "the same content" means for caching. */
export function contentHash(value: unknown): string {
  return createHash('sha256').update(canonicalJson(value), 'utf8').digest('hex');
}

/** A name-based UUID (RFC 9562 version 8) from a content hash: the same content, the same credential id. */
export function uuidFromHash(hashHex: string): string {
  const bytes = Buffer.from(hashHex.slice(0, 32), 'hex');
  bytes[6] = (bytes[6]! & 0x0f) | 0x80;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** Signs credentials with the environment's issuer key (eddsa-rdfc-2022, bundled contexts only). */
export class CredentialIssuer {
  readonly keyring: IssuerKeyring;
  readonly documentLoader: DocumentLoader;

  constructor(keyring: IssuerKeyring, publicBaseUrl: string) {
    this.keyring = keyring;
    this.documentLoader = documentLoaderFor(publicBaseUrl);
  }

  signingKey(environment: Environment): Promise<SigningKey> {
    return this.keyring.signingKey(environment);
  }

  async sign<T extends Record<string, unknown> & { '@context': unknown }>(
    key: SigningKey,
    document: T,
    created: Date,
  ): Promise<T & { proof: DataIntegrityProof }> {
    return signEddsaRdfc2022(document, {
      privateKey: key.privateKey,
      verificationMethod: key.verificationMethod,
      created,
      documentLoader: this.documentLoader,
    });
  }
}
