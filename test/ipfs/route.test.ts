import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Koa from 'koa';
import { afterAll, beforeAll, describe, test } from 'vitest';
import type { AppContext, AppState } from '../../api/context.ts';
import { problemHandler } from '../../api/middleware/problem-handler.ts';
import { requestId } from '../../api/middleware/request-id.ts';
import { ipfsRouter } from '../../api/routes/ipfs.ts';
import { listen, type RunningHttpServer } from '../../api/server.ts';
import { IpfsUnavailableError } from '../../src/adapters/ipfs/errors.ts';
import { type ContentStore, EmbeddedContentStore } from '../../src/adapters/ipfs/store.ts';
import { createLogger } from '../../src/platform/logging/logger.ts';
import { CHUNK_SIZE, computeCid, importBytes } from '../../src/standards/ipfs/cid.ts';
import { canonicalJsonBytes } from '../../src/standards/ipfs/json.ts';

async function serve(store: ContentStore): Promise<RunningHttpServer> {
  const app = new Koa<AppState, AppContext>();
  app.silent = true;
  app.use(requestId(createLogger('silent')));
  app.use(problemHandler());
  app.use(ipfsRouter(store).routes());
  return listen(app, '127.0.0.1', 0);
}

async function assertProblem(
  response: Response,
  status: number,
  code: string,
): Promise<Record<string, unknown>> {
  assert.equal(response.status, status);
  assert.equal(response.headers.get('content-type'), 'application/problem+json');
  const body = (await response.json()) as Record<string, unknown>;
  assert.equal(body.status, status);
  assert.equal(body.code, code);
  assert.equal(body.requestId, response.headers.get('x-request-id'));
  return body;
}

describe('GET /ipfs/:cid', () => {
  let directory: string;
  let store: EmbeddedContentStore;
  let http: RunningHttpServer;
  const metadata = canonicalJsonBytes({ gtin: '09506000134352', name: 'Kettle' });
  let cid: string;

  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), 'dpp-ipfs-route-'));
    store = new EmbeddedContentStore(directory);
    http = await serve(store);
    cid = (await store.put(metadata, 'application/json')).cid;
  });
  afterAll(async () => {
    await http.close();
    await rm(directory, { recursive: true, force: true });
  });

  test('200 with the bytes, stored content type and immutable caching headers', async () => {
    const response = await fetch(`${http.url}/ipfs/${cid}`);
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('content-type'), 'application/json');
    assert.equal(response.headers.get('etag'), `"${cid}"`);
    assert.equal(response.headers.get('cache-control'), 'public, max-age=31536000, immutable');
    assert.equal(response.headers.get('x-content-type-options'), 'nosniff');
    assert.equal(response.headers.get('content-security-policy'), "default-src 'none'; sandbox");
    assert.equal(response.headers.get('content-length'), String(metadata.length));
    assert.ok(Buffer.from(await response.arrayBuffer()).equals(metadata));
  });

  test('HEAD answers the headers without a body', async () => {
    const response = await fetch(`${http.url}/ipfs/${cid}`, { method: 'HEAD' });
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('etag'), `"${cid}"`);
    assert.equal((await response.arrayBuffer()).byteLength, 0);
  });

  test('a v0 spelling serves the same content under the v1 ETag', async () => {
    const bytes = Buffer.alloc(CHUNK_SIZE + 1, 1);
    const { cid: big } = await store.put(bytes, 'image/png');
    const v0 = importBytes(bytes).root.toV0().toString();
    const response = await fetch(`${http.url}/ipfs/${v0}`);
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('etag'), `"${big}"`);
    assert.equal(response.headers.get('content-type'), 'image/png');
    assert.ok(Buffer.from(await response.arrayBuffer()).equals(bytes));
  });

  test('304 when If-None-Match names the ETag (strong, weak, in a list, or *)', async () => {
    for (const tag of [`"${cid}"`, `W/"${cid}"`, `"other", "${cid}"`, '*']) {
      const response = await fetch(`${http.url}/ipfs/${cid}`, { headers: { 'if-none-match': tag } });
      assert.equal(response.status, 304, tag);
      assert.equal(response.headers.get('etag'), `"${cid}"`);
      assert.equal(response.headers.get('cache-control'), 'public, max-age=31536000, immutable');
      assert.equal((await response.arrayBuffer()).byteLength, 0);
    }
    const stale = await fetch(`${http.url}/ipfs/${cid}`, {
      headers: { 'if-none-match': '"bafkreisomethingelse"' },
    });
    assert.equal(stale.status, 200);
    await stale.arrayBuffer();
  });

  test('400 for something that is not a CID', async () => {
    for (const garbage of ['hello', 'bafy', 'Qm%3Cscript%3E', `${cid}x`]) {
      const body = await assertProblem(await fetch(`${http.url}/ipfs/${garbage}`), 400, 'invalid_cid');
      assert.deepEqual((body.errors as Array<{ path: string }>)[0]?.path, 'cid');
    }
  });

  test('404 for a valid CID that is not stored, with or without If-None-Match', async () => {
    const absent = computeCid(canonicalJsonBytes({ absent: true }));
    await assertProblem(await fetch(`${http.url}/ipfs/${absent}`), 404, 'content_not_found');
    await assertProblem(
      await fetch(`${http.url}/ipfs/${absent}`, { headers: { 'if-none-match': `"${absent}"` } }),
      404,
      'content_not_found',
    );
  });

  test('corrupted content is withheld with a 500 problem, not served', async () => {
    const bytes = canonicalJsonBytes({ will: 'rot' });
    const { cid: rotten } = await store.put(bytes, 'application/json');
    await writeFile(store.paths(rotten).content, canonicalJsonBytes({ has: 'rotted' }));
    const response = await fetch(`${http.url}/ipfs/${rotten}`);
    const body = await assertProblem(response, 500, 'content_integrity');
    assert.equal(body.cid, rotten);
    assert.equal(response.headers.get('etag'), null);
    assert.equal(response.headers.get('cache-control'), null);
  });
});

describe('GET /ipfs/:cid with an unavailable store', () => {
  test('503 with Retry-After', async () => {
    const down: ContentStore = {
      put: () => Promise.reject(new IpfsUnavailableError('down')),
      get: () => Promise.reject(new IpfsUnavailableError('down')),
      has: () => Promise.reject(new IpfsUnavailableError('down')),
    };
    const http = await serve(down);
    try {
      const response = await fetch(`${http.url}/ipfs/${computeCid(new Uint8Array(0))}`);
      await assertProblem(response, 503, 'ipfs_unavailable');
      assert.equal(response.headers.get('retry-after'), '30');
    } finally {
      await http.close();
    }
  });
});
