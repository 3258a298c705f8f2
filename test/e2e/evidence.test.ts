import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, test } from 'vitest';
import type { EvidenceBundle } from '../../src/passport/evidence/bundle.ts';
import type { Check } from '../../src/passport/evidence/checks.ts';
import { verifyEvidence } from '../../src/passport/evidence/verify-evidence.ts';
import { type DisclosedBattery, startDisclosedBattery } from '../support/battery-disclosure.ts';
import { enrollAndMint } from '../support/fixtures/mint.ts';
import { GTIN, RECYCLING_SITE } from '../support/fixtures/products.ts';
import { scratchDir } from '../support/scratch-dir.ts';
import { waitFor } from '../support/wait-for.ts';
import { forgedBy, issuerSigner, resign } from './fixtures/evidence-tamper.ts';

// docs/evidence.md: a passport's evidence bundle over HTTP, and the offline verifier against the test's anvil.

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const OPERATOR = 'urn:dpp-service:content-specification:product-operator:1.0';
const PRODUCT = 'urn:dpp-service:content-specification:product:1.0';

describe('evidence a regulator verifies offline', () => {
  let world: DisclosedBattery;
  let bundle: EvidenceBundle;
  let rpcUrl: string;
  const evidencePath = () => `/v1/dpps/${encodeURIComponent(world.dppId)}/evidence`;
  const evidenceAs = (key: string | null) => world.stack.api.call('GET', evidencePath(), { key });
  const copy = (): EvidenceBundle => structuredClone(bundle);
  const verify = (candidate: unknown, trustedKeys: string[] = []) =>
    verifyEvidence(candidate, { rpcUrl, trustedKeys });
  const failed = (checks: Check[]) => checks.filter((c) => c.outcome === 'fail').map((c) => c.name);

  beforeAll(async () => {
    world = await startDisclosedBattery('04E7E7E7E7E701');
    rpcUrl = world.stack.chain.anvil.rpcUrl;
    const asBrand = (method: string, path: string, body?: unknown) =>
      world.stack.api.call(method, path, { key: world.brand.testKey, body });
    for (const action of ['QC_PASSED', 'SHIPPED']) {
      const logged = await asBrand('POST', '/v1/iaas/log-event', {
        tokenId: world.tokenId,
        action,
        locationName: 'Gigafactory Lyon',
        latitude: 45.76,
        longitude: 4.84,
        metadata: { line: 4 },
        actorEmail: 'qa.lead@voltaic.example',
      });
      assert.equal(logged.status, 201, logged.text);
    }
    await waitFor(
      'every event anchored',
      () =>
        world.stack.api.db.orm.em
          .fork()
          .execute('select id from supply_chain_events where token_id = ? and transaction_hash is null', [
            world.tokenId,
          ]),
      (unanchored) => unanchored.length === 0,
      60,
    );
    // The signed credential the service keeps (signed on first read; this battery lacks UNTP's required data).
    for (const format of ['vc']) {
      const read = await world.stack.api.call(
        'GET',
        `/test/01/${GTIN}/21/${world.tokenId}?format=${format}`,
        {
          env: null,
          key: null,
        },
      );
      assert.equal(read.status, 200, `${format}: ${read.text.slice(0, 300)}`);
    }
    const answer = await evidenceAs(world.brand.testKey);
    assert.equal(answer.status, 200, answer.text);
    bundle = answer.body;
  });
  afterAll(() => world?.stack.close());

  test('the bundle holds every version, the credentials, the DID documents, the anchored events, a signed manifest', () => {
    assert.equal(bundle.format, 'dpp-evidence/1');
    assert.equal(bundle.passport.dppId, world.dppId);
    assert.equal(bundle.passport.tokenId, world.tokenId);
    assert.ok(bundle.versions.length >= 4, 'mint, content write, two events');
    assert.deepEqual(
      bundle.versions.map((v) => v.number),
      bundle.versions.map((_, i) => i + 1),
    );
    const actions = bundle.events.map((e) => e.payload.action);
    for (const action of ['MINT', 'PRODUCT_DATA_UPDATED', 'QC_PASSED', 'SHIPPED'])
      assert.ok(actions.includes(action), action);
    assert.ok(bundle.events.every((e) => e.anchor !== null));
    assert.ok(bundle.credentials.some((c) => c.format === 'vc'));
    assert.match(bundle.issuer.did, /^did:web:.+:test$/);
    assert.equal(bundle.issuer.didDocuments.at(-1)!.validUntil, null);
    assert.equal(
      bundle.manifest.parts.length,
      1 +
        bundle.issuer.didDocuments.length +
        bundle.versions.length +
        bundle.credentials.length +
        bundle.events.length,
    );
  });

  test('the brand and an authority read it; another company, a granted recycler and no credential do not', async () => {
    const authority = await evidenceAs(world.authority.testKey);
    assert.equal(authority.status, 200, authority.text);
    assert.deepEqual(authority.body.versions, bundle.versions);
    for (const key of [world.stranger.testKey, world.recycler.testKey]) {
      const refused = await evidenceAs(key);
      assert.equal(refused.status, 404, refused.text);
      assert.equal(refused.body.code ?? refused.body.type?.split('/').at(-1), 'dpp_not_found');
    }
    assert.equal((await evidenceAs(null)).status, 401);
  });

  test('npm run cli -- verify-evidence FILE --rpc URL: the untouched bundle passes, a tampered one fails', async () => {
    const dir = await scratchDir('evidence-');
    const file = join(dir, 'bundle.json');
    await writeFile(file, JSON.stringify(bundle));
    // No database, no service: an environment without any of their settings.
    const env = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' };
    const run = (path: string) =>
      promisify(execFile)('npm', ['run', '--silent', 'cli', '--', 'verify-evidence', path, '--rpc', rpcUrl], {
        cwd: ROOT,
        env,
      }).then(
        (done) => ({ code: 0, output: done.stdout }),
        (error: { code: number; stdout: string }) => ({ code: error.code, output: error.stdout }),
      );
    const passed = await run(file);
    assert.equal(passed.code, 0, passed.output);
    assert.match(passed.output, /^VERIFIED: all \d+ checks passed$/m);
    assert.match(
      passed.output,
      /^PASS +event \d+ \(SHIPPED\) anchor: SupplyChainEvent in tx 0x[0-9a-f]{64}, block \d+, log \d+$/m,
    );
    const edited = copy();
    (edited.versions[1]!.document[PRODUCT] as Record<string, unknown>).name = 'Another battery';
    await writeFile(file, JSON.stringify(edited));
    const failing = await run(file);
    assert.equal(failing.code, 1, failing.output);
    assert.match(failing.output, /^FAIL +version 2 hash: /m);
    assert.match(failing.output, /^NOT VERIFIED/m);
  });

  test('npm run cli -- evidence <dppId>: the operator’s bundle, the same history, verified', async () => {
    const api = world.stack.api;
    const { stdout } = await promisify(execFile)(
      'npm',
      ['run', '--silent', 'cli', '--', 'evidence', world.dppId],
      {
        cwd: ROOT,
        env: {
          PATH: process.env.PATH ?? '',
          HOME: process.env.HOME ?? '',
          DATABASE_URL: api.db.url,
          PUBLIC_BASE_URL: api.config.publicBaseUrl,
          LOG_LEVEL: 'silent',
        },
        maxBuffer: 64 * 1024 * 1024,
      },
    );
    const operator = JSON.parse(stdout) as EvidenceBundle;
    assert.deepEqual(operator.versions, bundle.versions);
    assert.deepEqual(operator.events, bundle.events);
    assert.deepEqual(operator.issuer, bundle.issuer);
    assert.deepEqual(failed(await verify(operator, [keyOfBundle()])), []);
  });

  test('untouched: every check passes (none pending)', async () => {
    const checks = await verify(copy(), [keyOfBundle()]);
    assert.deepEqual(failed(checks), []);
    assert.deepEqual(
      checks.filter((c) => c.outcome === 'pending'),
      [],
    );
  });

  test('an edited version fails its hash and the manifest', async () => {
    const edited = copy();
    (edited.versions[0]!.document[PRODUCT] as Record<string, unknown>).name = 'Another battery';
    assert.deepEqual(failed(await verify(edited)), ['manifest parts', 'version 1 hash']);
  });

  test('a version rewritten by the issuer itself (re-hashed, re-signed) contradicts the anchored events', async () => {
    const signer = await issuerSigner(world.stack.api);
    const rewritten = copy();
    const last = rewritten.versions.at(-1)!;
    const events = (last.document[OPERATOR] as { events: { locationName: string }[] }).events;
    events.at(-1)!.locationName = 'Somewhere else';
    last.sha256 = (await import('../../src/passport/evidence/manifest.ts')).canonicalSha256(last.document);
    const failures = failed(await verify(resign(rewritten, signer)));
    assert.deepEqual(failures, [`version ${last.number} against the events`]);
  });

  test('a removed event: the manifest fails; removed and re-signed by the issuer, the chain still has it', async () => {
    const index = bundle.events.findIndex((e) => e.payload.action === 'QC_PASSED');
    const removed = copy();
    removed.events.splice(index, 1);
    assert.ok(failed(await verify(removed)).includes('manifest parts'));
    const signer = await issuerSigner(world.stack.api);
    const failures = failed(await verify(resign(removed, signer)));
    assert.ok(failures.includes('no anchored event left out'), failures.join());
    assert.ok(
      failures.some((name) => / against the events$/.test(name)),
      failures.join(),
    );
    assert.ok(!failures.includes('manifest signature'));
  });

  test('a history re-signed with another key: not the issuer’s signature; with the DID document swapped, the credentials and the trusted key tell', async () => {
    const forger = forgedBy(bundle.issuer.did);
    const resigned = resign(copy(), forger);
    assert.deepEqual(failed(await verify(resigned)), ['manifest signature']);
    const swapped = copy();
    for (const dated of swapped.issuer.didDocuments) dated.document = forger.didDocument;
    const failures = failed(await verify(resign(swapped, forger), [keyOfBundle()]));
    assert.ok(failures.includes('manifest signature'), failures.join());
    assert.ok(failures.filter((name) => name.startsWith('credential ')).length === bundle.credentials.length);
  });

  test('a wrong anchor: a transaction hash pointing elsewhere fails that event’s anchor', async () => {
    const wrong = copy();
    const shipped = wrong.events.find((e) => e.payload.action === 'SHIPPED')!;
    const checked = wrong.events.find((e) => e.payload.action === 'QC_PASSED')!;
    shipped.anchor = {
      ...shipped.anchor!,
      transactionHash: checked.anchor!.transactionHash,
      blockNumber: checked.anchor!.blockNumber,
    };
    const signer = await issuerSigner(world.stack.api);
    const failures = failed(await verify(resign(wrong, signer)));
    assert.deepEqual(failures, [`event ${String(shipped.payload.id)} (SHIPPED) anchor`]);
  });

  test('a recycled passport: its Recycled anchor verifies (an event the chain records itself)', async () => {
    const asBrand = (method: string, path: string, body?: unknown) =>
      world.stack.api.call(method, path, { key: world.brand.testKey, body });
    const tokenId = await enrollAndMint(asBrand, '04E7E7E7E7E702');
    const recycled = await asBrand('POST', '/v1/iaas/log-recycle', { tokenId, ...RECYCLING_SITE });
    assert.equal(recycled.status, 201, recycled.text);
    const view = await world.stack.api.call('GET', `/test/01/${GTIN}/21/${tokenId}?format=public`, {
      env: null,
    });
    const answer = await world.stack.api.call(
      'GET',
      `/v1/dpps/${encodeURIComponent(view.body.dppHeader.digitalProductPassportId)}/evidence`,
      { key: world.brand.testKey },
    );
    assert.equal(answer.status, 200, answer.text);
    const checks = await verify(answer.body);
    assert.deepEqual(failed(checks), []);
    const anchor = checks.find((c) => /\(RECYCLE_TRANSFER\) anchor$/.test(c.name));
    assert.equal(anchor?.outcome, 'pass', JSON.stringify(checks));
    assert.match(anchor!.detail, /^Recycled in tx 0x[0-9a-f]{64}, block \d+, log \d+$/);
  });

  test('a model passport: pending until its version is anchored, then the VersionAnchored log verifies; a version rewritten after its anchor fails', async () => {
    const gtin = '04012345000092';
    const created = await world.stack.api.call('POST', '/v1/dpps', {
      key: world.brand.testKey,
      body: {
        granularity: 'Model',
        gtin,
        'urn:dpp-service:spec:battery:1.0.0': { generalProductInformation: { warrantyPeriod: 'P8Y' } },
      },
    });
    assert.equal(created.status, 201, created.text);
    const modelEvidence = () =>
      world.stack.api.call(
        'GET',
        `/v1/dpps/${encodeURIComponent(created.body.digitalProductPassportId)}/evidence`,
        { key: world.brand.testKey },
      );
    const first = await modelEvidence();
    assert.equal(first.status, 200, first.text);
    assert.equal(first.body.passport.granularity, 'model');
    if (first.body.versions[0].anchor === null) {
      const checks = await verify(first.body);
      assert.deepEqual(failed(checks), []);
      assert.deepEqual(
        checks.filter((c) => c.outcome === 'pending').map((c) => c.name),
        ['version 1 anchor'],
      );
    }
    const anchored = await waitFor('the model version anchored', modelEvidence, (answer) =>
      Boolean(answer.body.versions[0].anchor),
    );
    const checks = await verify(anchored.body);
    assert.deepEqual(failed(checks), []);
    const anchor = checks.find((c) => c.name === 'version 1 anchor');
    assert.equal(anchor?.outcome, 'pass', JSON.stringify(checks));
    assert.match(anchor!.detail, /^VersionAnchored in tx 0x[0-9a-f]{64}, block \d+, log \d+$/);

    const rewritten = structuredClone(anchored.body) as EvidenceBundle;
    const version = rewritten.versions[0]!;
    (version.document['urn:dpp-service:spec:battery:1.0.0'] as Record<string, Record<string, string>>)
      .generalProductInformation!.warrantyPeriod = 'P15Y';
    version.sha256 = (await import('../../src/passport/evidence/manifest.ts')).canonicalSha256(
      version.document,
    );
    const signer = await issuerSigner(world.stack.api);
    assert.deepEqual(failed(await verify(resign(rewritten, signer))), ['version 1 anchor']);
  });

  function keyOfBundle(): string {
    const header = JSON.parse(Buffer.from(bundle.manifest.jws.split('.')[0]!, 'base64url').toString());
    return String(header.kid).split('#')[1]!;
  }
});
