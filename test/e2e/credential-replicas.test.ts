import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, test } from 'vitest';
import type { TestTenant } from '../support/api.ts';
import { type ApiProcess, startApiProcess } from '../support/api-process.ts';
import { enrollAndMint } from '../support/fixtures/mint.ts';
import { FULL_PRODUCT, GTIN } from '../support/fixtures/products.ts';
import { tapQuery } from '../support/fixtures/sun.ts';
import { startTestStack, type TestStack } from '../support/stack.ts';

/**
 * Two API processes behind one load balancer (each with its own memory, one database) answer the same signed
 * bytes for one passport version in every signed form: the UNTP credential (Data Integrity and VC-JOSE) and the
 * passport's W3C credential. A signature's `validFrom`/`created` are the signing second, so a replica that
 * signed the version again a second later would answer other bytes.
 */
describe('signed credentials are identical across API replicas', () => {
  let stack: TestStack;
  let tenant: TestTenant;
  let tokenId: string;
  /** A second passport of the same status list, revoked by the status list test. */
  let other: string;
  const chipUid = '04C1B2C3D4E5B7';
  const replicas: ApiProcess[] = [];
  const call = (method: string, path: string, body?: unknown) =>
    stack.api.call(method, path, { key: tenant.testKey, ...(body === undefined ? {} : { body }) });
  const path = (query: string) => `/01/${GTIN}/21/${tokenId}?${query}`;

  /** A public read at one replica, as a verifier makes it; the exact bytes served. */
  const read = async (replica: ApiProcess, query: string) => readPath(replica, path(query));
  const readPath = async (replica: ApiProcess, target: string) => {
    const response = await fetch(`${replica.url}${target}`, { headers: { 'x-service-env': 'test' } });
    const text = await response.text();
    assert.equal(response.status, 200, text);
    return { text, etag: response.headers.get('etag') };
  };
  const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  beforeAll(async () => {
    stack = await startTestStack();
    tenant = await stack.api.createTenant('Acme Apparel');
    tokenId = await enrollAndMint(call, chipUid, FULL_PRODUCT);
    other = await enrollAndMint(call, '04C1B2C3D4E5B8');
    const env = {
      DATABASE_URL: stack.api.db.url,
      TEMPORAL_ADDRESS: stack.temporal.address,
      PUBLIC_BASE_URL: stack.api.config.publicBaseUrl,
      IPFS_STORE_DIR: stack.api.config.ipfs.storeDir,
    };
    replicas.push(...(await Promise.all([startApiProcess(env), startApiProcess(env)])));
  }, 180_000);
  afterAll(async () => {
    for (const replica of replicas) await replica.stop().catch(() => {});
    await stack?.close();
  });

  for (const format of ['untp', 'vc-jwt', 'vc']) {
    test(`format=${format}: one replica signs, the other answers the same bytes a second later`, async () => {
      const [first, second] = replicas as [ApiProcess, ApiProcess];
      const signed = await read(first, `format=${format}`);
      // Past the signing second: a second signature would carry another validFrom and proof.
      await pause(1_100);
      const again = await read(second, `format=${format}`);
      assert.equal(again.text, signed.text, 'the same credential bytes from both replicas');
      assert.equal(again.etag, signed.etag);
      assert.equal((await read(first, `format=${format}`)).text, signed.text);
      // And the in-process API of the stack, a third replica.
      const third = await stack.api.call('GET', path(`format=${format}`));
      assert.equal(third.text, signed.text);
    }, 60_000);
  }

  test('the status list credential: the same bytes from both replicas, before and after a revocation', async () => {
    // The other passport's credential gives it its status entry (assigned when first issued).
    const otherVc = await readPath(replicas[0]!, `/01/${GTIN}/21/${other}?format=vc`);
    const list = new URL(JSON.parse(otherVc.text).credentialStatus.statusListCredential).pathname;
    const first = await readPath(replicas[0]!, list);
    await pause(1_100);
    assert.equal((await readPath(replicas[1]!, list)).text, first.text);
    // A revocation changes the list: requested at both replicas at once, one signature for both.
    const revoked = await call('POST', '/v1/dpp/revoke', { tokenId: other, reason: 'stolen' });
    assert.equal(revoked.status, 200, revoked.text);
    const [a, b] = await Promise.all(replicas.map((replica) => readPath(replica, list)));
    assert.notEqual(a!.text, first.text, 'the revocation is in the list');
    assert.equal(a!.text, b!.text);
    await pause(1_100);
    assert.equal((await readPath(replicas[1]!, list)).text, a!.text);
  }, 60_000);

  test('a new version requested at both replicas at once: both answer the one signature that was stored', async () => {
    const before = (await read(replicas[0]!, 'format=vc')).text;
    // A verified tap changes the credential (verificationCount): a new version to sign.
    const tapped = await stack.api.call('GET', `/01/${GTIN}/21/${tokenId}?${tapQuery(chipUid, 2)}`, {
      headers: { accept: 'application/json' },
    });
    assert.ok(tapped.status < 400, tapped.text);
    for (let round = 0; round < 3; round++) {
      const answers = await Promise.all(
        ['vc', 'untp', 'vc-jwt'].flatMap((format) =>
          replicas.map(async (replica) => ({ format, text: (await read(replica, `format=${format}`)).text })),
        ),
      );
      for (const format of ['vc', 'untp', 'vc-jwt']) {
        const texts = new Set(answers.filter((a) => a.format === format).map((a) => a.text));
        assert.equal(texts.size, 1, `format=${format}: one set of bytes across replicas`);
      }
      if (round === 0) {
        const vc = answers.find((a) => a.format === 'vc')!.text;
        assert.notEqual(vc, before, 'the tap made a new version');
      }
      await pause(1_100);
    }
  }, 90_000);
});
