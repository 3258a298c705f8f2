import assert from 'node:assert/strict';
import { describe, test } from 'vitest';
import { computeCid } from '../../src/standards/ipfs/cid.ts';
import { canonicalJson, canonicalJsonBytes, ipfsUrl, parseIpfsUrl } from '../../src/standards/ipfs/json.ts';

describe('canonicalJson', () => {
  test('sorts keys at every depth and drops whitespace', () => {
    assert.equal(
      canonicalJson({ b: 1, a: { d: [3, { z: true, y: null }], c: 'x' } }),
      '{"a":{"c":"x","d":[3,{"y":null,"z":true}]},"b":1}',
    );
  });

  test('the same metadata in any key order gives the same bytes and CID', () => {
    const one = { name: 'Kettle', gtin: '09506000134352', materials: [{ share: 0.7, name: 'steel' }] };
    const two = { materials: [{ name: 'steel', share: 0.7 }], gtin: '09506000134352', name: 'Kettle' };
    assert.ok(canonicalJsonBytes(one).equals(canonicalJsonBytes(two)));
    assert.equal(computeCid(canonicalJsonBytes(one)), computeCid(canonicalJsonBytes(two)));
  });

  test('orders integer-like keys as strings, by UTF-16 code units (RFC 8785)', () => {
    assert.equal(canonicalJson({ b: 1, 10: 2, 9: 3, a: 4 }), '{"10":2,"9":3,"a":4,"b":1}');
    assert.equal(
      canonicalJson({ '\u00e9': 1, z: 2, '\ud83d\ude00': 3, '\uffff': 4 }),
      '{"z":2,"é":1,"😀":3,"\uffff":4}',
    );
  });

  test('numbers, strings, dates and undefined members as JSON.stringify writes them', () => {
    assert.equal(canonicalJson([1e21, 0.1, -0, 1.5e-7]), '[1e+21,0.1,0,1.5e-7]');
    assert.equal(canonicalJson('line\n"quote"\u0001'), '"line\\n\\"quote\\"\\u0001"');
    assert.equal(
      canonicalJson({ at: new Date('2025-01-02T03:04:05Z'), gone: undefined }),
      '{"at":"2025-01-02T03:04:05.000Z"}',
    );
    assert.equal(
      canonicalJsonBytes({ name: 'Café' }).toString('hex'),
      Buffer.from('{"name":"Café"}').toString('hex'),
    );
  });

  test('rejects what JSON cannot carry', () => {
    for (const value of [
      Number.NaN,
      Number.POSITIVE_INFINITY,
      1n,
      () => 1,
      Symbol('s'),
      [undefined],
      undefined,
    ]) {
      assert.throws(() => canonicalJson(value), TypeError);
    }
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    assert.throws(() => canonicalJson(cyclic), /circular/);
    const shared = { x: 1 };
    assert.equal(canonicalJson({ a: shared, b: shared }), '{"a":{"x":1},"b":{"x":1}}');
  });
});

describe('ipfs URLs', () => {
  const cid = 'bafkreihdwdcefgh4dqkjv67uzcmw7ojee6xedzdetojuzjevtenxquvyku';

  test('round trip', () => {
    assert.equal(ipfsUrl(cid), `ipfs://${cid}`);
    assert.equal(parseIpfsUrl(ipfsUrl(cid)), cid);
    assert.equal(parseIpfsUrl(`ipfs://${cid}/`), cid);
  });

  test('normalises v0 to v1 base32', () => {
    assert.equal(
      parseIpfsUrl('ipfs://QmbWqxBEKC3P8tqsKc98xmWNzrzDtRLMiMPL8wBuTGsMnR'),
      'bafybeigdyrzt5sfp7udm7hu76uh7y26nf3efuylqabf3oclgtqy55fbzdi',
    );
  });

  test('rejects anything else', () => {
    for (const url of [
      '',
      cid,
      `https://ipfs.io/ipfs/${cid}`,
      `ipfs://${cid}/metadata.json`,
      `ipfs://${cid}?x=1`,
      'ipfs://not-a-cid',
      'ipfs://',
    ]) {
      assert.equal(parseIpfsUrl(url), undefined, url);
    }
  });
});
