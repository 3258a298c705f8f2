import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm, stat, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CID } from 'multiformats/cid';
import { sha512 } from 'multiformats/hashes/sha2';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { createContentStore } from '../../src/adapters/ipfs/create.ts';
import { ContentIntegrityError, InvalidCidError } from '../../src/adapters/ipfs/errors.ts';
import { KuboContentStore } from '../../src/adapters/ipfs/kubo.ts';
import { EmbeddedContentStore } from '../../src/adapters/ipfs/store.ts';
import { CHUNK_SIZE, computeCid, importBytes } from '../../src/standards/ipfs/cid.ts';
import { canonicalJsonBytes, JSON_CONTENT_TYPE } from '../../src/standards/ipfs/json.ts';

async function listFiles(directory: string): Promise<string[]> {
  const entries = await readdir(directory, { recursive: true, withFileTypes: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name));
}

describe('EmbeddedContentStore', () => {
  let directory: string;
  let store: EmbeddedContentStore;
  const metadata = canonicalJsonBytes({ gtin: '09506000134352', name: 'Kettle', materials: ['steel'] });

  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), 'dpp-ipfs-store-'));
    store = new EmbeddedContentStore(directory);
  });
  afterAll(() => rm(directory, { recursive: true, force: true }));

  test('round trip: the CID is the one Kubo gives, bytes and content type come back', async () => {
    const { cid } = await store.put(metadata, JSON_CONTENT_TYPE);
    assert.equal(cid, computeCid(metadata));
    assert.equal(await store.has(cid), true);
    const stored = await store.get(cid);
    assert.ok(stored);
    assert.ok(stored.bytes.equals(metadata));
    assert.equal(stored.contentType, JSON_CONTENT_TYPE);
  });

  test('content persists for a new store on the same directory', async () => {
    const { cid } = await store.put(metadata, JSON_CONTENT_TYPE);
    const reopened = new EmbeddedContentStore(directory);
    assert.equal((await reopened.get(cid))?.contentType, JSON_CONTENT_TYPE);
  });

  test('a multi-chunk file is stored whole and found by its v0 spelling too', async () => {
    const bytes = Buffer.alloc(CHUNK_SIZE * 2 + 3, 7);
    const { cid } = await store.put(bytes, 'application/pdf');
    assert.match(cid, /^bafybei/);
    const v0 = importBytes(bytes).root.toV0().toString();
    const stored = await store.get(v0);
    assert.ok(stored?.bytes.equals(bytes));
    assert.equal(stored?.contentType, 'application/pdf');
    assert.equal(await store.has(v0), true);
  });

  test('empty content is storable', async () => {
    const { cid } = await store.put(new Uint8Array(0), 'text/plain; charset=utf-8');
    assert.equal(cid, 'bafkreihdwdcefgh4dqkjv67uzcmw7ojee6xedzdetojuzjevtenxquvyku');
    assert.equal((await store.get(cid))?.bytes.length, 0);
  });

  test('put is idempotent: same CID, file untouched, first content type kept, no temp files left', async () => {
    const bytes = canonicalJsonBytes({ idempotent: true });
    const first = await store.put(bytes, JSON_CONTENT_TYPE);
    const { content, sidecar } = store.paths(first.cid);
    const before = await stat(content);
    const sidecarBefore = await readFile(sidecar, 'utf8');
    const again = await Promise.all([
      store.put(bytes, JSON_CONTENT_TYPE),
      store.put(bytes, 'text/plain'),
      store.put(bytes, JSON_CONTENT_TYPE),
    ]);
    assert.deepEqual(
      again.map((result) => result.cid),
      [first.cid, first.cid, first.cid],
    );
    const afterStat = await stat(content);
    assert.equal(afterStat.ino, before.ino);
    assert.equal(afterStat.mtimeMs, before.mtimeMs);
    assert.equal(await readFile(sidecar, 'utf8'), sidecarBefore);
    assert.equal((await store.get(first.cid))?.contentType, JSON_CONTENT_TYPE);
    assert.deepEqual(
      (await listFiles(directory)).filter((file) => file.endsWith('.tmp')),
      [],
    );
  });

  test('concurrent first puts of the same bytes all succeed with one copy', async () => {
    const bytes = canonicalJsonBytes({ concurrent: Date.now() });
    const results = await Promise.all(Array.from({ length: 8 }, () => store.put(bytes, JSON_CONTENT_TYPE)));
    assert.equal(new Set(results.map((result) => result.cid)).size, 1);
    const cid = results[0]!.cid;
    assert.ok((await store.get(cid))?.bytes.equals(bytes));
    const files = (await listFiles(directory)).filter((file) => file.includes(cid));
    assert.deepEqual(files.map((file) => file.slice(file.lastIndexOf('/') + 1)).sort(), [
      cid,
      `${cid}.meta.json`,
    ]);
  });

  test('corrupted content is reported, not served; putting the bytes again repairs it', async () => {
    const bytes = canonicalJsonBytes({ corrupt: 'soon' });
    const { cid } = await store.put(bytes, JSON_CONTENT_TYPE);
    const { content } = store.paths(cid);
    await writeFile(content, canonicalJsonBytes({ corrupt: 'now!' }));
    await assert.rejects(store.get(cid), (error: unknown) => {
      assert.ok(error instanceof ContentIntegrityError);
      assert.equal(error.cid, cid);
      assert.notEqual(error.actualCid, cid);
      assert.match(error.message, /corrupt/);
      return true;
    });
    // Truncation is corruption too.
    await writeFile(content, bytes.subarray(0, 5));
    await assert.rejects(store.get(cid), ContentIntegrityError);

    assert.equal((await store.put(bytes, JSON_CONTENT_TYPE)).cid, cid);
    assert.ok((await store.get(cid))?.bytes.equals(bytes));
  });

  test('absent content, unsupported CIDs and garbage', async () => {
    const absent = computeCid(canonicalJsonBytes({ never: 'stored' }));
    assert.equal(await store.get(absent), undefined);
    assert.equal(await store.has(absent), false);

    // A valid CID no importer store can hold (sha2-512).
    const other = CID.createV1(0x55, await sha512.digest(metadata)).toString();
    assert.equal(await store.get(other), undefined);
    assert.equal(await store.has(other), false);

    await assert.rejects(store.get('not-a-cid'), (error: unknown) => {
      assert.ok(error instanceof InvalidCidError);
      assert.equal(error.kind, 'invalid');
      assert.equal(error.code, 'invalid_cid');
      return true;
    });
    await assert.rejects(store.has('../../etc/passwd'), InvalidCidError);
  });

  test('a missing or damaged sidecar falls back to application/octet-stream', async () => {
    const bytes = canonicalJsonBytes({ sidecar: 'gone' });
    const { cid } = await store.put(bytes, JSON_CONTENT_TYPE);
    const { sidecar } = store.paths(cid);
    await writeFile(sidecar, '{"contentType":"text/html\\r\\nSet-Cookie: x=1"}');
    assert.equal((await store.get(cid))?.contentType, 'application/octet-stream');
    await unlink(sidecar);
    assert.equal((await store.get(cid))?.contentType, 'application/octet-stream');
  });

  test('rejects content types that are not media types', async () => {
    for (const type of ['', 'json', 'text/html\r\nX-Evil: 1', 'a/b; c=\u0000']) {
      await assert.rejects(store.put(metadata, type), TypeError, JSON.stringify(type));
    }
    await store.put(metadata, 'application/ld+json; profile="https://example.org/dpp"');
  });
});

describe('createContentStore', () => {
  test('Kubo when an API URL is configured, the embedded store otherwise', () => {
    const kubo = createContentStore({ apiUrl: 'http://127.0.0.1:5001', storeDir: '.data/ipfs' });
    assert.ok(kubo instanceof KuboContentStore);
    assert.equal(kubo.apiUrl, 'http://127.0.0.1:5001');
    const embedded = createContentStore({ apiUrl: undefined, storeDir: '/tmp/dpp-ipfs' });
    assert.ok(embedded instanceof EmbeddedContentStore);
    assert.equal(embedded.directory, '/tmp/dpp-ipfs');
  });
});
