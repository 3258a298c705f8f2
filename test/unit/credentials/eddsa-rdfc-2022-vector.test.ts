import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import jsonld from 'jsonld';
import { describe, test } from 'vitest';
import { CONTEXT_DOCUMENTS, CREDENTIALS_V2_CONTEXT } from '../../../src/standards/credentials/contexts.ts';
import { signEddsaRdfc2022, verifyEddsaRdfc2022 } from '../../../src/standards/credentials/data-integrity.ts';
import { ed25519FromSeed } from '../../../src/standards/credentials/ed25519.ts';
import {
  ed25519PublicKeyFromMultikey,
  ed25519SeedFromMultikey,
} from '../../../src/standards/credentials/multibase.ts';

// The W3C vc-di-eddsa test vectors (test/fixtures/vc-di-eddsa/README.md names their source).
const fixture = (name: string) =>
  JSON.parse(readFileSync(new URL(`../../fixtures/vc-di-eddsa/${name}`, import.meta.url), 'utf8'));
const keyPair = fixture('keyPair.json') as { publicKeyMultibase: string; privateKeyMultibase: string };
const unsigned = fixture('unsigned.json') as Record<string, unknown> & { '@context': string[] };
const signed = fixture('eddsa-rdfc-2022-signed.json');
const examplesContext = fixture('credentials-examples-v2.jsonld');
// Published intermediate values (TestVectors/eddsa-rdfc-2022/proofHashDataInt.txt, docHashDataInt.txt).
const PROOF_HASH = 'bea7b7acfbad0126b135104024a5f1733e705108f42d59668b05c0c50004c6b0';
const DOCUMENT_HASH = '517744132ae165a5349155bef0bb0cf2258fff99dfe1dbd914b938d775a36017';

const documents = new Map<string, unknown>([
  [CREDENTIALS_V2_CONTEXT, CONTEXT_DOCUMENTS.credentialsV2],
  ['https://www.w3.org/ns/credentials/examples/v2', examplesContext],
]);
const documentLoader = async (url: string) => {
  if (!documents.has(url)) throw new Error(`not local: ${url}`);
  return { contextUrl: null, documentUrl: url, document: documents.get(url) };
};

async function sha256OfCanonical(document: unknown): Promise<string> {
  const nquads = await jsonld.canonize(document, {
    algorithm: 'RDFC-1.0',
    format: 'application/n-quads',
    documentLoader,
    safe: true,
  });
  return createHash('sha256').update(nquads).digest('hex');
}

describe('eddsa-rdfc-2022: the W3C Data Integrity EdDSA test vector', () => {
  const seed = ed25519SeedFromMultikey(keyPair.privateKeyMultibase);
  const key = ed25519FromSeed(seed);

  test('the vector’s secret key gives its public key', () => {
    assert.equal(key.publicKeyMultibase, keyPair.publicKeyMultibase);
    assert.deepEqual(key.publicKey, ed25519PublicKeyFromMultikey(keyPair.publicKeyMultibase));
  });

  test('the unsigned document is the signed one without its proof; its hashes are the published ones', async () => {
    const { proof, ...rest } = signed;
    assert.deepEqual(rest, unsigned);
    const { proofValue: _value, ...proofConfig } = proof;
    assert.equal(await sha256OfCanonical({ '@context': unsigned['@context'], ...proofConfig }), PROOF_HASH);
    assert.equal(await sha256OfCanonical(unsigned), DOCUMENT_HASH);
  });

  test('our signer reproduces the published proof byte for byte', async () => {
    const ours = await signEddsaRdfc2022(unsigned, {
      privateKey: key.privateKey,
      verificationMethod: signed.proof.verificationMethod,
      created: new Date(signed.proof.created),
      documentLoader,
    });
    assert.deepEqual(ours, signed);
    assert.equal(ours.proof.proofValue, signed.proof.proofValue);
  });

  test('our verifier accepts the vector and refuses it altered', async () => {
    assert.equal(await verifyEddsaRdfc2022(signed, key.publicKey, documentLoader), true);
    const altered = { ...signed, credentialSubject: { ...signed.credentialSubject, alumniOf: 'Elsewhere' } };
    assert.equal(await verifyEddsaRdfc2022(altered, key.publicKey, documentLoader), false);
    const otherKey = ed25519FromSeed(Buffer.alloc(32, 7));
    assert.equal(await verifyEddsaRdfc2022(signed, otherKey.publicKey, documentLoader), false);
  });

  test('our bundled VC 2.0 context is the published one (the verifier library’s copy)', async () => {
    const { contexts } = await import('@digitalbazaar/credentials-context');
    assert.deepEqual(CONTEXT_DOCUMENTS.credentialsV2, contexts.get(CREDENTIALS_V2_CONTEXT));
  });

  test('signing refuses a term no context defines (safe mode) instead of dropping it', async () => {
    await assert.rejects(
      signEddsaRdfc2022(
        { '@context': [CREDENTIALS_V2_CONTEXT], type: ['VerifiableCredential'], undefinedTerm: 'x' },
        {
          privateKey: key.privateKey,
          verificationMethod: 'did:example:a#b',
          created: new Date(),
          documentLoader,
        },
      ),
    );
  });
});
