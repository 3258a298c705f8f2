import assert from 'node:assert/strict';
import * as dagPb from '@ipld/dag-pb';
import { UnixFS } from 'ipfs-unixfs';
import { describe, test } from 'vitest';
import {
  CHUNK_SIZE,
  computeCid,
  DAG_PB_CODEC,
  importBytes,
  MAX_LINKS_PER_NODE,
  normalizeCid,
  parseCid,
  RAW_CODEC,
} from '../../src/standards/ipfs/cid.ts';
import { referenceCid } from '../support/reference-cid.ts';

/** Deterministic, non-repeating filler so that no two leaves are equal. */
function pseudoRandomBytes(size: number, seed = 1): Uint8Array {
  const bytes = new Uint8Array(size);
  let state = seed >>> 0 || 1;
  for (let i = 0; i < size; i++) {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    bytes[i] = state & 0xff;
  }
  return bytes;
}

describe('computeCid matches `ipfs add --cid-version 1 --raw-leaves`', () => {
  const cases: Array<[string, Uint8Array]> = [
    ['empty input', new Uint8Array(0)],
    ['small JSON', new TextEncoder().encode('{"gtin":"09506000134352","name":"Kettle"}')],
    ['exactly one chunk (262144 bytes)', pseudoRandomBytes(CHUNK_SIZE, 2)],
    ['one byte over a chunk (262145 bytes)', pseudoRandomBytes(CHUNK_SIZE + 1, 3)],
    ['about 1 MiB', pseudoRandomBytes(1024 * 1024 + 12_345, 4)],
  ];
  for (const [name, bytes] of cases) {
    test(name, async () => {
      assert.equal(computeCid(bytes), await referenceCid(bytes));
    });
  }

  test('well-known CIDs', () => {
    assert.equal(
      computeCid(new Uint8Array(0)),
      'bafkreihdwdcefgh4dqkjv67uzcmw7ojee6xedzdetojuzjevtenxquvyku',
    );
    assert.equal(
      computeCid(new TextEncoder().encode('hello world')),
      'bafkreifzjut3te2nhyekklss27nh3k72ysco7y32koao5eei66wof36n5e',
    );
  });

  test('more than 174 leaves needs a second level (174 * 262144 + 1 bytes)', async () => {
    const bytes = pseudoRandomBytes(MAX_LINKS_PER_NODE * CHUNK_SIZE + 1, 5);
    const result = importBytes(bytes);
    assert.equal(result.cid, await referenceCid(bytes));

    // 175 raw leaves, a full node of 174, a node holding the lone last leaf, and the root above both.
    const leaves = result.blocks.filter((block) => block.cid.code === RAW_CODEC);
    const nodes = result.blocks.filter((block) => block.cid.code === DAG_PB_CODEC);
    assert.equal(leaves.length, MAX_LINKS_PER_NODE + 1);
    assert.equal(nodes.length, 3);
    const rootBlock = result.blocks.at(-1)!;
    assert.equal(rootBlock.cid.toString(), result.cid);
    const root = dagPb.decode(rootBlock.bytes);
    const unixfs = UnixFS.unmarshal(root.Data!);
    assert.equal(unixfs.type, 'file');
    assert.equal(unixfs.fileSize(), BigInt(bytes.length));
    assert.deepEqual(unixfs.blockSizes, [BigInt(MAX_LINKS_PER_NODE * CHUNK_SIZE), 1n]);
    assert.equal(root.Links.length, 2);
  });
});

describe('importBytes', () => {
  test('a single chunk is one raw block holding the bytes', () => {
    const bytes = new TextEncoder().encode('{"a":1}');
    const result = importBytes(bytes);
    assert.equal(result.blocks.length, 1);
    assert.equal(result.root.code, RAW_CODEC);
    assert.equal(result.root.version, 1);
    assert.deepEqual(result.blocks[0]!.bytes, bytes);
    assert.match(result.cid, /^bafkrei[a-z2-7]{52}$/);
  });

  test('a multi-chunk file: raw leaves, then a dag-pb UnixFS file root with blocksizes and Tsizes', () => {
    const bytes = pseudoRandomBytes(2 * CHUNK_SIZE + 100, 6);
    const result = importBytes(bytes);
    assert.equal(result.size, bytes.length);
    assert.equal(result.blocks.length, 4);
    assert.equal(result.root.code, DAG_PB_CODEC);
    assert.match(result.cid, /^bafybei[a-z2-7]{52}$/);
    const root = dagPb.decode(result.blocks[3]!.bytes);
    assert.deepEqual(
      root.Links.map((link) => [link.Name, link.Tsize]),
      [
        ['', CHUNK_SIZE],
        ['', CHUNK_SIZE],
        ['', 100],
      ],
    );
    assert.deepEqual(UnixFS.unmarshal(root.Data!).blockSizes, [BigInt(CHUNK_SIZE), BigInt(CHUNK_SIZE), 100n]);
    const joined = Buffer.concat(result.blocks.slice(0, 3).map((block) => block.bytes));
    assert.ok(joined.equals(bytes));
  });
});

describe('parsing CIDs', () => {
  test('accepts v0 and v1, normalises to CIDv1 base32', () => {
    const v1 = importBytes(pseudoRandomBytes(CHUNK_SIZE + 1, 7)).root;
    const v0 = v1.toV0().toString();
    assert.match(v0, /^Qm/);
    assert.equal(normalizeCid(v0), v1.toString());
    assert.equal(normalizeCid(v1.toString()), v1.toString());
  });

  test('rejects garbage', () => {
    for (const text of [
      '',
      'hello',
      'bafy',
      'Qm123',
      'ipfs://bafkreihdwdcefgh4dqkjv67uzcmw7ojee6xedzdetojuzjevtenxquvyku',
    ]) {
      assert.equal(parseCid(text), undefined, text);
      assert.equal(normalizeCid(text), undefined, text);
    }
  });
});
