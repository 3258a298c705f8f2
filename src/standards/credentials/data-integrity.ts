import { createHash, type KeyObject } from 'node:crypto';
import jsonld, { type DocumentLoader } from 'jsonld';
import { ed25519Sign, ed25519Verify } from './ed25519.ts';
import { base58btcDecode, base58btcEncode } from './multibase.ts';

/** A Data Integrity proof with the eddsa-rdfc-2022 cryptosuite (W3C Data Integrity EdDSA Cryptosuites v1.0). */
export interface DataIntegrityProof {
  type: 'DataIntegrityProof';
  cryptosuite: 'eddsa-rdfc-2022';
  created: string;
  verificationMethod: string;
  proofPurpose: 'assertionMethod';
  proofValue: string;
}

type JsonLdDocument = Record<string, unknown> & { '@context': unknown };

async function rdfcHash(document: unknown, documentLoader: DocumentLoader): Promise<Buffer> {
  const nquads = await jsonld.canonize(document, {
    algorithm: 'RDFC-1.0',
    format: 'application/n-quads',
    documentLoader,
    safe: true,
    base: null,
  });
  return createHash('sha256').update(nquads, 'utf8').digest();
}

/**
 * hashData of the cryptosuite: SHA-256 of the RDFC-1.0 canonical proof configuration (the proof without its
 * value, with the document's @context) followed by SHA-256 of the canonical document without its proof.
 * Safe mode: a term our contexts do not define fails the signing instead of being silently dropped.
 */
async function hashData(
  document: JsonLdDocument,
  proofConfig: Omit<DataIntegrityProof, 'proofValue'>,
  documentLoader: DocumentLoader,
): Promise<Buffer> {
  const { proof: _proof, ...unsecured } = document;
  const [proofHash, documentHash] = await Promise.all([
    rdfcHash({ '@context': document['@context'], ...proofConfig }, documentLoader),
    rdfcHash(unsecured, documentLoader),
  ]);
  return Buffer.concat([proofHash, documentHash]);
}

/** xsd:dateTime in whole seconds, as Data Integrity examples write `created`. */
export function proofTimestamp(date: Date): string {
  return `${date.toISOString().slice(0, 19)}Z`;
}

/** Adds an eddsa-rdfc-2022 DataIntegrityProof made with `privateKey` to a JSON-LD document. */
export async function signEddsaRdfc2022<T extends JsonLdDocument>(
  document: T,
  options: {
    privateKey: KeyObject;
    verificationMethod: string;
    created: Date;
    documentLoader: DocumentLoader;
  },
): Promise<T & { proof: DataIntegrityProof }> {
  const proofConfig = {
    type: 'DataIntegrityProof' as const,
    cryptosuite: 'eddsa-rdfc-2022' as const,
    created: proofTimestamp(options.created),
    verificationMethod: options.verificationMethod,
    proofPurpose: 'assertionMethod' as const,
  };
  const data = await hashData(document, proofConfig, options.documentLoader);
  const proofValue = `z${base58btcEncode(ed25519Sign(options.privateKey, data))}`;
  return { ...document, proof: { ...proofConfig, proofValue } };
}

/** Checks a document's eddsa-rdfc-2022 proof against a raw Ed25519 public key. */
export async function verifyEddsaRdfc2022(
  document: JsonLdDocument & { proof: DataIntegrityProof },
  publicKey: Uint8Array,
  documentLoader: DocumentLoader,
): Promise<boolean> {
  const { proofValue, ...proofConfig } = document.proof;
  if (document.proof.cryptosuite !== 'eddsa-rdfc-2022' || !proofValue.startsWith('z')) return false;
  const data = await hashData(document, proofConfig, documentLoader);
  return ed25519Verify(publicKey, data, base58btcDecode(proofValue.slice(1)));
}
