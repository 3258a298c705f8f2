import assert from 'node:assert/strict';
import { beforeAll } from 'vitest';
import { http, stack } from '../journeys/client.ts';
import {
  localDocumentLoader,
  revocationBit,
  verifyWithDigitalBazaar,
} from '../support/credential-verifier.ts';
import { standard } from './support/clause.ts';
import { type ConformanceLevel, conformanceLevels } from './support/levels.ts';
import { type ConformancePassport, conformancePassport } from './support/passport.ts';
import { npmVersion } from './support/tools.ts';

const VERIFIER = '@digitalbazaar/vc';
const VERSIONS = {
  [VERIFIER]: '7.3.0',
  '@digitalbazaar/eddsa-rdfc-2022-cryptosuite': '1.3.0',
  '@digitalbazaar/vc-bitstring-status-list': '2.0.1',
};

standard(
  {
    name: 'W3C Verifiable Credentials 2.0 (Data Integrity eddsa-rdfc-2022, Bitstring Status List)',
    checkedWith: Object.entries(VERSIONS)
      .map(([name, version]) => `${name} ${version}`)
      .join(', '),
    reference: 'https://www.w3.org/TR/vc-data-model-2.0/',
  },
  (clause) => {
    let passport: ConformancePassport;
    // biome-ignore lint/suspicious/noExplicitAny: the credential as the service answers it
    let credential: any;
    let loader: Awaited<ReturnType<typeof localDocumentLoader>>;
    let levels: { model: ConformanceLevel; batch: ConformanceLevel };
    // biome-ignore lint/suspicious/noExplicitAny: the credentials as the service answers them
    const levelCredentials: Record<'model' | 'batch', any> = { model: undefined, batch: undefined };

    beforeAll(async () => {
      for (const [name, version] of Object.entries(VERSIONS)) {
        assert.equal(npmVersion(name), version, `the verifier installed is ${name} ${version}`);
      }
      passport = await conformancePassport();
      const answer = await http('GET', `${passport.path}?format=vc`, { env: null });
      assert.equal(answer.status, 200, answer.text.slice(0, 300));
      credential = answer.body;
      levels = await conformanceLevels();
      for (const level of [levels.model, levels.batch]) {
        const read = await http('GET', `${level.path}?format=vc`, { env: null });
        assert.equal(read.status, 200, read.text.slice(0, 300));
        levelCredentials[level.granularity] = read.body;
      }
      loader = await localDocumentLoader({ baseUrl: stack().baseUrl, publicBaseUrl: stack().baseUrl });
    });

    clause(
      'vc-data-model',
      "the passport's credential (format=vc) verifies: proof, issuer, status",
      async () => {
        const verified = await verifyWithDigitalBazaar(credential, loader.documentLoader);
        assert.equal(verified.verified, true, JSON.stringify(verified.error ?? verified).slice(0, 1500));
        assert.deepEqual(credential['@context'].slice(0, 1), ['https://www.w3.org/ns/credentials/v2']);
        assert.ok(credential.type.includes('VerifiableCredential'));
      },
    );

    clause(
      'di-eddsa-rdfc-2022',
      'the proof is a DataIntegrityProof eddsa-rdfc-2022 by an assertionMethod key',
      () => {
        const proof = credential.proof;
        assert.equal(proof.type, 'DataIntegrityProof');
        assert.equal(proof.cryptosuite, 'eddsa-rdfc-2022');
        assert.equal(proof.proofPurpose, 'assertionMethod');
        assert.ok(String(proof.verificationMethod).startsWith(`${credential.issuer}#`));
        assert.ok(
          loader.fetched.some((url) => url.endsWith('/did.json')),
          'the verifier resolved the issuer through did:web',
        );
      },
    );

    clause('tamper-evidence', 'a credential changed after signing does not verify', async () => {
      const changed = structuredClone(credential);
      changed.credentialSubject['schema:name'] = 'Counterfeit Jacket';
      const verified = await verifyWithDigitalBazaar(changed, loader.documentLoader);
      assert.equal(verified.verified, false);
    });

    clause(
      'bitstring-status-list',
      "the credential's revocation bit, read from its signed list, is unset",
      async () => {
        assert.equal(credential.credentialStatus.type, 'BitstringStatusListEntry');
        assert.equal(credential.credentialStatus.statusPurpose, 'revocation');
        assert.equal(await revocationBit(credential, loader.documentLoader), false);
      },
    );

    for (const granularity of ['model', 'batch'] as const) {
      clause(
        `${granularity}-vc`,
        `a ${granularity} passport's credential (format=vc) verifies: proof by the items' issuer; a change breaks it`,
        async () => {
          const level = levelCredentials[granularity];
          const verified = await verifyWithDigitalBazaar(level, loader.documentLoader);
          assert.equal(verified.verified, true, JSON.stringify(verified.error ?? verified).slice(0, 1500));
          assert.equal(level.issuer, credential.issuer, 'the issuer of the items’ credentials');
          assert.equal(level.proof.cryptosuite, 'eddsa-rdfc-2022');
          assert.equal(level.credentialSubject.id, levels[granularity].digitalLink);
          const changed = structuredClone(level);
          changed.credentialSubject['schema:name'] = 'Counterfeit Cells';
          assert.equal((await verifyWithDigitalBazaar(changed, loader.documentLoader)).verified, false);
        },
      );
    }
    clause.leftOut(
      'level-status-list',
      "a model's or batch's revocation bit",
      'a model or batch passport has no status list entry: its credential is issued over its current version and states its dppStatus (docs/granularity.md)',
    );
  },
);
