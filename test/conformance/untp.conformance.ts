import assert from 'node:assert/strict';
import { createPublicKey, verify } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { base58btc } from 'multiformats/bases/base58';
import { beforeAll, type TestContext } from 'vitest';
import { http, stack } from '../journeys/client.ts';
import { localDocumentLoader, verifyWithDigitalBazaar } from '../support/credential-verifier.ts';
import { standard } from './support/clause.ts';
import { DPPVALIDATOR_VERSION, type DppvalidatorReport, runDppvalidator } from './support/dppvalidator.ts';
import { conformanceLevels } from './support/levels.ts';
import { type ConformancePassport, conformancePassport } from './support/passport.ts';

const UNTP_CONTEXT = 'https://vocabulary.uncefact.org/untp/0.7.0/context/';
const UNTP_CONTEXT_COPY = new URL(
  '../../src/standards/credentials/contexts/untp-0.7.0.jsonld',
  import.meta.url,
);

// biome-ignore lint/suspicious/noExplicitAny: documents as the service answers them
type Json = any;

/** The passport's UNTP credential as a verifier fetches it, and the contexts it names that we publish. */
async function untpCredential(passport: Pick<ConformancePassport, 'path' | 'digitalLink'>) {
  const answer = await http('GET', `${passport.path}?format=untp`, { env: null });
  assert.equal(answer.status, 200, answer.text.slice(0, 300));
  const credential = answer.body;
  const contexts: Record<string, unknown> = {};
  for (const url of credential['@context'] as string[]) {
    const own = new URL(url);
    if (own.origin !== new URL(passport.digitalLink).origin) continue;
    const fetched = await http('GET', own.pathname, { env: null });
    assert.equal(fetched.status, 200, url);
    contexts[url] = fetched.body;
  }
  return { credential, contexts };
}

async function layerPasses(
  context: TestContext,
  report: DppvalidatorReport,
  layer: keyof DppvalidatorReport['layers'],
) {
  const verdict = report.layers[layer];
  assert.equal(verdict.crashed, undefined, `${layer} crashed: ${verdict.crashed}`);
  assert.deepEqual(verdict.errors ?? [], [], `${layer}: ${JSON.stringify(verdict.errors).slice(0, 500)}`);
  assert.equal(verdict.valid, true, layer);
  const warnings = verdict.warnings ?? [];
  const codes = [...new Set(warnings.map((w) => w.code))].join(', ');
  await context.annotate(
    warnings.length === 0 ? 'no warnings' : `${warnings.length} warnings (${codes})`,
    'conformance',
  );
}

standard(
  {
    name: 'UNTP Digital Product Passport 0.7.0',
    checkedWith: `dppvalidator ${DPPVALIDATOR_VERSION} (PyPI)`,
    reference: 'https://uncefact.github.io/spec-untp/docs/specification/DigitalProductPassport',
  },
  (clause) => {
    let credential: Json;
    let contexts: Record<string, unknown>;
    let report: DppvalidatorReport;

    beforeAll(async () => {
      const passport = await conformancePassport();
      ({ credential, contexts } = await untpCredential(passport));
      report = await runDppvalidator(credential, contexts);
    }, 300_000);

    clause('cli-validate', '`dppvalidator validate` accepts the passport (format=untp)', () => {
      assert.equal(report.cli.exitCode, 0, JSON.stringify(report.cli.result.errors).slice(0, 500));
      assert.equal(report.cli.result.valid, true);
    });
    clause('schema', 'the UNTP 0.7.0 JSON schema layer', (context) => layerPasses(context, report, 'schema'));
    clause('model', 'the data model layer (types, required members)', (context) =>
      layerPasses(context, report, 'model'),
    );
    clause('semantic', 'the semantic rules layer', (context) => layerPasses(context, report, 'semantic'));
    clause('json-ld', 'the JSON-LD layer: every term expands (UNTP 0.7.0 context)', (context) =>
      layerPasses(context, report, 'jsonld'),
    );
    clause(
      'validator-control',
      'the validator refuses a passport without its required productCategory',
      async () => {
        const broken = structuredClone(credential);
        delete broken.credentialSubject.productCategory;
        const rejected = await runDppvalidator(broken, contexts);
        assert.equal(rejected.cli.exitCode, 1);
        assert.equal(rejected.layers.schema.valid, false);
      },
      120_000,
    );
    clause.leftOut(
      'vocabulary',
      'the vocabulary layer',
      "dppvalidator 0.5.1's vocabulary layer reads UNTP 0.6 attributes and raises on every UNTP 0.7.0 passport, UNTP's own sample included (docs/untp.md)",
    );
    clause(
      'proof',
      'the eddsa-rdfc-2022 proof and the status entry verify',
      async () => {
        const { documentLoader } = await localDocumentLoader({
          baseUrl: stack().baseUrl,
          publicBaseUrl: stack().baseUrl,
        });
        // The UNTP context as UNTP publishes it (a copy: this check runs offline), ours as the service serves it.
        const known = new Map<string, unknown>(Object.entries(contexts));
        known.set(UNTP_CONTEXT, JSON.parse(readFileSync(UNTP_CONTEXT_COPY, 'utf8')));
        const loader = async (url: string) =>
          known.has(url)
            ? { contextUrl: null, documentUrl: url, document: known.get(url) }
            : documentLoader(url);
        const verified = await verifyWithDigitalBazaar(credential, loader);
        assert.equal(verified.verified, true, JSON.stringify(verified.error ?? verified).slice(0, 1500));
        const changed = structuredClone(credential);
        changed.credentialSubject.name = 'Counterfeit Jacket';
        assert.equal((await verifyWithDigitalBazaar(changed, loader)).verified, false);
      },
      { checkedWith: '@digitalbazaar/vc 7.3.0 + eddsa-rdfc-2022-cryptosuite 1.3.0' },
    );
    clause(
      'model-and-batch',
      "a model's and a batch's UNTP credential (format=untp, idGranularity model / batch): every layer above",
      async () => {
        const { model, batch } = await conformanceLevels();
        for (const level of [model, batch]) {
          const served = await untpCredential(level);
          assert.equal(served.credential.credentialSubject.idGranularity, level.granularity);
          const judged = await runDppvalidator(served.credential, served.contexts);
          assert.equal(
            judged.cli.exitCode,
            0,
            `${level.granularity}: ${JSON.stringify(judged.cli.result.errors).slice(0, 500)}`,
          );
          for (const layer of ['schema', 'model', 'semantic', 'jsonld'] as const) {
            const verdict = judged.layers[layer];
            assert.deepEqual(
              verdict.errors ?? [],
              [],
              `${level.granularity} ${layer}: ${JSON.stringify(verdict.errors).slice(0, 500)}`,
            );
            assert.equal(verdict.valid, true, `${level.granularity} ${layer}`);
          }
        }
      },
      300_000,
    );
    clause.leftOut(
      'signature',
      "dppvalidator's signature layer",
      'it resolves did:web over https only and verifies publicKeyJwk keys over concatenated N-Quads, not eddsa-rdfc-2022 (docs/untp.md); the proof is verified with @digitalbazaar/vc instead (clause proof)',
    );
  },
);

standard(
  {
    name: 'W3C VC-JOSE-COSE 1.0 (application/vc+jwt)',
    checkedWith: 'node:crypto Ed25519 (OpenSSL) with the did:web key; multiformats base58btc',
    reference: 'https://www.w3.org/TR/vc-jose-cose/',
  },
  (clause) => {
    let passport: ConformancePassport;
    let jws: string;
    let header: Json;
    let didDocument: Json;

    beforeAll(async () => {
      passport = await conformancePassport();
      const answer = await http('GET', passport.path, {
        env: null,
        headers: { accept: 'application/vc+jwt' },
      });
      assert.equal(answer.status, 200, answer.text.slice(0, 300));
      assert.match(answer.headers.get('content-type') ?? '', /^application\/vc\+jwt/);
      jws = answer.text.trim();
      header = JSON.parse(Buffer.from(jws.split('.')[0]!, 'base64url').toString());
      const issuer = (await http('GET', `${passport.path}?format=untp`, { env: null })).body.issuer;
      const did: string = typeof issuer === 'string' ? issuer : issuer.id;
      // did:web:{host}[:path…] → http://{host}/{path…}/did.json (the service under test speaks http).
      const [, , , ...segments] = did.split(':');
      const path = segments.length > 0 ? `/${segments.join('/')}/did.json` : '/.well-known/did.json';
      didDocument = (await http('GET', path, { env: null })).body;
      assert.equal(didDocument.id, did);
    });

    /** The kid's Ed25519 key from the DID document, as a Node KeyObject (Multikey: 0xed 0x01 + 32 bytes). */
    const issuerKey = () => {
      const method = didDocument.verificationMethod.find((vm: Json) => vm.id === header.kid);
      assert.ok(method, `${header.kid} is a verification method of ${didDocument.id}`);
      const bytes = base58btc.decode(method.publicKeyMultibase);
      assert.deepEqual([...bytes.subarray(0, 2)], [0xed, 0x01], 'an Ed25519 Multikey');
      return createPublicKey({
        key: { kty: 'OKP', crv: 'Ed25519', x: Buffer.from(bytes.subarray(2)).toString('base64url') },
        format: 'jwk',
      });
    };
    const verifies = (token: string) => {
      const [h, p, s] = token.split('.') as [string, string, string];
      return verify(null, Buffer.from(`${h}.${p}`), issuerKey(), Buffer.from(s, 'base64url'));
    };

    clause('media-type', 'Accept: application/vc+jwt answers a compact JWS as application/vc+jwt', () => {
      assert.match(jws, /^[\w-]+\.[\w-]+\.[\w-]+$/);
    });
    clause(
      'jose-header',
      'the protected header: typ vc+jwt, alg EdDSA, kid an assertionMethod of the issuer',
      () => {
        assert.equal(header.typ, 'vc+jwt');
        assert.equal(header.alg, 'EdDSA');
        assert.ok(didDocument.assertionMethod.includes(header.kid), `${header.kid} in assertionMethod`);
      },
    );
    clause('signature', "the JWS verifies with the issuer's published key", () => {
      assert.equal(verifies(jws), true);
    });
    clause('payload', 'the payload is the credential itself (VC 2.0, no embedded proof)', () => {
      const payload = JSON.parse(Buffer.from(jws.split('.')[1]!, 'base64url').toString());
      assert.equal(payload['@context'][0], 'https://www.w3.org/ns/credentials/v2');
      assert.ok(payload.type.includes('VerifiableCredential'));
      assert.equal(payload.proof, undefined);
      assert.equal(payload.credentialSubject.id, passport.digitalLink);
    });
    clause('tamper-evidence', 'a changed payload does not verify', () => {
      const [h, p, s] = jws.split('.') as [string, string, string];
      const payload = JSON.parse(Buffer.from(p, 'base64url').toString());
      const changed = Buffer.from(JSON.stringify({ ...payload, name: 'Counterfeit' })).toString('base64url');
      assert.equal(verifies(`${h}.${changed}.${s}`), false);
    });
  },
);
