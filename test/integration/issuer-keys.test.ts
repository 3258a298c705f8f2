import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { SecretBox } from '../../src/platform/secret-box.ts';
import { CONTEXT_DOCUMENTS, CREDENTIALS_V2_CONTEXT } from '../../src/standards/credentials/contexts.ts';
import { proofTimestamp } from '../../src/standards/credentials/data-integrity.ts';
import { CredentialIssuer } from '../../src/standards/credentials/issuer.ts';
import { IssuerKeyring } from '../../src/standards/credentials/issuer-keys.ts';
import { encodeStatusList, statusListCredential } from '../../src/standards/credentials/status-list.ts';
import { eddsaRdfc2022Suite } from '../support/credential-verifier.ts';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';

const BASE = 'https://dpp.example.com';
const SEED_A = Buffer.alloc(32, 0xa1);
const SEED_B = Buffer.alloc(32, 0xb2);

describe('issuer keys: configured, generated, rotated; earlier credentials stay verifiable', () => {
  let db: TestDatabase;
  const box = new SecretBox(Buffer.alloc(32, 9));
  const keyring = (configured: { live?: Buffer; test?: Buffer }) =>
    new IssuerKeyring({
      orm: db.orm,
      publicBaseUrl: BASE,
      configured: { live: configured.live, test: configured.test },
      secretBox: box,
    });

  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(() => db.drop());

  /** Verifies with @digitalbazaar/vc, resolving the issuer's DID to the document `didDocument` gives. */
  async function verifiesWith(credential: unknown, didDocument: { verificationMethod: { id: string }[] }) {
    const { verifyCredential } = await import('@digitalbazaar/vc');
    const documentLoader = async (url: string) => {
      const document =
        url === CREDENTIALS_V2_CONTEXT
          ? CONTEXT_DOCUMENTS.credentialsV2
          : url.includes('#')
            ? {
                '@context': 'https://w3id.org/security/multikey/v1',
                ...didDocument.verificationMethod.find((vm) => vm.id === url),
              }
            : url.startsWith('did:web:')
              ? didDocument
              : undefined;
      if (!document) throw new Error(`refusing ${url}`);
      return { contextUrl: null, documentUrl: url, document };
    };
    return verifyCredential({ credential, suite: eddsaRdfc2022Suite(), documentLoader });
  }

  async function signSomething(ring: IssuerKeyring) {
    const issuer = new CredentialIssuer(ring, BASE);
    const key = await issuer.signingKey('test');
    const now = new Date();
    const unsigned = statusListCredential({
      url: `${BASE}/credentials/status/test/1`,
      issuer: key.did,
      validFrom: proofTimestamp(now),
      encodedList: encodeStatusList([3]),
    });
    return issuer.sign(key, unsigned, now);
  }

  test('a configured key signs; rotating to another keeps the first published, so its credentials verify', async () => {
    const first = keyring({ test: SEED_A });
    const signedWithA = await signSomething(first);
    const keyA = await first.signingKey('test');
    assert.equal(keyA.did, 'did:web:dpp.example.com:test');
    assert.equal(signedWithA.proof.verificationMethod, keyA.verificationMethod);

    // The operator configures key B (a new process).
    const second = keyring({ test: SEED_B });
    const keyB = await second.signingKey('test');
    assert.notEqual(keyB.publicKeyMultibase, keyA.publicKeyMultibase);
    const document = (await second.didDocument('test')) as {
      id: string;
      verificationMethod: { id: string; type: string; controller: string; publicKeyMultibase: string }[];
      assertionMethod: string[];
    };
    assert.equal(document.id, 'did:web:dpp.example.com:test');
    assert.deepEqual(
      document.verificationMethod.map((vm) => vm.publicKeyMultibase),
      [keyB.publicKeyMultibase, keyA.publicKeyMultibase],
      'current key first, the retired one kept',
    );
    assert.deepEqual(document.assertionMethod, [keyB.verificationMethod, keyA.verificationMethod]);
    for (const vm of document.verificationMethod) {
      assert.equal(vm.type, 'Multikey');
      assert.equal(vm.controller, document.id);
      assert.match(vm.publicKeyMultibase, /^z6Mk/);
    }
    const verified = await verifiesWith(signedWithA, document);
    assert.equal(verified.verified, true, JSON.stringify(verified.error));
    assert.equal((await verifiesWith(await signSomething(second), document)).verified, true);

    // A key that is not in the document does not verify (the check can fail).
    const stranger = await signSomething(keyring({ test: Buffer.alloc(32, 0xc3) }));
    assert.equal((await verifiesWith(stranger, document)).verified, false);
  });

  test('without configuration a key is generated once, sealed at rest, and shared by every process', async () => {
    const one = await keyring({}).signingKey('live');
    const two = await keyring({}).signingKey('live');
    assert.equal(one.publicKeyMultibase, two.publicKeyMultibase);
    assert.equal(one.did, 'did:web:dpp.example.com');
    const [row] = await db.orm.em
      .fork()
      .getConnection()
      .execute(`select source, sealed_private_key from issuer_keys where environment = 'live'`);
    assert.ok(row);
    assert.equal(row.source, 'generated');
    const sealed = Buffer.from(row.sealed_private_key);
    assert.ok(sealed.length > 32);
    assert.equal(
      sealed.includes(one.privateKey.export({ format: 'der', type: 'pkcs8' }).subarray(16)),
      false,
    );
  });

  test('one key cannot serve both environments', async () => {
    await assert.rejects(keyring({ live: SEED_B }).signingKey('live'), /another environment/);
  });
});
