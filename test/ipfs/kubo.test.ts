import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { InvalidCidError, IpfsUnavailableError } from '../../src/adapters/ipfs/errors.ts';
import { KuboContentStore, kuboStoreFromEnv, sniffContentType } from '../../src/adapters/ipfs/kubo.ts';
import { DomainError } from '../../src/platform/errors.ts';
import { CHUNK_SIZE, computeCid, normalizeCid } from '../../src/standards/ipfs/cid.ts';
import { canonicalJsonBytes } from '../../src/standards/ipfs/json.ts';
import { referenceCid } from '../support/reference-cid.ts';

interface FakeKubo {
  url: string;
  requests: Array<{ method: string; path: string; query: URLSearchParams; authorization?: string }>;
  pinned: Map<string, Buffer>;
  /** Makes `add` import with Kubo's old defaults (no raw leaves), as a misconfigured node would. */
  legacyImport: boolean;
  close(): Promise<void>;
}

async function readBody(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** The single file part of a multipart/form-data body. */
function multipartFile(body: Buffer, contentType: string): Buffer {
  const boundary = /boundary=(?:"([^"]+)"|([^;]+))/.exec(contentType);
  assert.ok(boundary, `multipart boundary in ${contentType}`);
  const delimiter = `--${boundary[1] ?? boundary[2]}`;
  const start = body.indexOf('\r\n\r\n', body.indexOf(delimiter)) + 4;
  const end = body.indexOf(`\r\n${delimiter}`, start);
  return body.subarray(start, end);
}

function kuboError(message: string): string {
  return JSON.stringify({ Message: message, Code: 0, Type: 'error' });
}

/** Speaks Kubo's `/api/v0/add` and `/api/v0/cat` over real HTTP on loopback, hashing with ipfs-only-hash. */
async function startFakeKubo(): Promise<FakeKubo> {
  const fake: Omit<FakeKubo, 'url' | 'close'> = { requests: [], pinned: new Map(), legacyImport: false };
  const server: Server = createServer(async (request, response) => {
    const url = new URL(request.url ?? '/', 'http://fake');
    fake.requests.push({
      method: request.method ?? '',
      path: url.pathname,
      query: url.searchParams,
      ...(request.headers.authorization ? { authorization: request.headers.authorization } : {}),
    });
    const body = await readBody(request);
    if (!url.pathname.startsWith('/api/v0/')) {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('404 page not found');
      return;
    }
    if (request.method !== 'POST') {
      response.writeHead(405, { 'content-type': 'text/plain' }).end('405 - Method Not Allowed');
      return;
    }
    response.setHeader('content-type', 'application/json');
    if (url.pathname === '/api/v0/add') {
      const file = multipartFile(body, request.headers['content-type'] ?? '');
      const rawLeaves = url.searchParams.get('raw-leaves') === 'true' && !fake.legacyImport;
      const cid = await referenceCid(file, { rawLeaves });
      fake.pinned.set(cid, Buffer.from(file));
      response.end(`${JSON.stringify({ Name: 'content', Hash: cid, Size: String(file.length) })}\n`);
      return;
    }
    if (url.pathname === '/api/v0/cat') {
      const arg = url.searchParams.get('arg') ?? '';
      if (normalizeCid(arg) === undefined) {
        response.writeHead(500).end(kuboError(`invalid path "${arg}": invalid cid`));
        return;
      }
      const bytes = fake.pinned.get(arg);
      if (!bytes) {
        response
          .writeHead(500)
          .end(kuboError(`block was not found locally (offline): ipld: could not find ${arg}`));
        return;
      }
      response.writeHead(200, { 'content-type': 'text/plain', 'x-stream-output': '1' }).end(bytes);
      return;
    }
    response.writeHead(404).end(kuboError(`unknown command "${url.pathname}"`));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(fake, {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
}

describe('KuboContentStore against a loopback Kubo RPC', () => {
  let kubo: FakeKubo;
  let store: KuboContentStore;

  beforeAll(async () => {
    kubo = await startFakeKubo();
    store = new KuboContentStore({ apiUrl: `${kubo.url}/`, timeoutMs: 5_000 });
  });
  afterAll(() => kubo.close());

  test('put adds with cid-version=1, raw-leaves and pin; the CID is the computed one', async () => {
    const metadata = canonicalJsonBytes({ gtin: '09506000134352', name: 'Kettle' });
    const { cid } = await store.put(metadata, 'application/json');
    assert.equal(cid, computeCid(metadata));
    const add = kubo.requests.at(-1)!;
    assert.equal(add.method, 'POST');
    assert.equal(add.path, '/api/v0/add');
    assert.equal(add.query.get('cid-version'), '1');
    assert.equal(add.query.get('raw-leaves'), 'true');
    assert.equal(add.query.get('pin'), 'true');
    assert.ok(kubo.pinned.get(cid)?.equals(metadata));
  });

  test('get returns the bytes; JSON is sniffed as application/json, the rest as octet-stream', async () => {
    const metadata = canonicalJsonBytes({ sniff: ['me'] });
    const json = await store.put(metadata, 'application/json');
    const fetched = await store.get(json.cid);
    assert.ok(fetched?.bytes.equals(metadata));
    assert.equal(fetched?.contentType, 'application/json');
    const cat = kubo.requests.at(-1)!;
    assert.equal(cat.path, '/api/v0/cat');
    assert.equal(cat.method, 'POST');
    assert.equal(cat.query.get('arg'), json.cid);
    assert.equal(cat.query.get('offline'), 'true');

    const binary = Buffer.alloc(CHUNK_SIZE + 10, 0xab);
    const large = await store.put(binary, 'application/octet-stream');
    assert.match(large.cid, /^bafybei/);
    const fetchedBinary = await store.get(large.cid);
    assert.ok(fetchedBinary?.bytes.equals(binary));
    assert.equal(fetchedBinary?.contentType, 'application/octet-stream');
    assert.equal(await store.has(large.cid), true);
  });

  test('absent content is undefined / false; garbage is an InvalidCidError', async () => {
    const absent = computeCid(canonicalJsonBytes({ not: 'there' }));
    assert.equal(await store.get(absent), undefined);
    assert.equal(await store.has(absent), false);
    await assert.rejects(store.get('nope'), InvalidCidError);
  });

  test('a node whose importer gives other CIDs is refused', async () => {
    kubo.legacyImport = true;
    try {
      await assert.rejects(
        store.put(canonicalJsonBytes({ legacy: true }), 'application/json'),
        /Import settings/,
      );
    } finally {
      kubo.legacyImport = false;
    }
  });

  test('user:password in IPFS_API_URL becomes Basic auth and is not put in the URL', async () => {
    const authed = kuboStoreFromEnv({ IPFS_API_URL: kubo.url.replace('http://', 'http://dpp:s3cret@') });
    assert.ok(authed);
    assert.doesNotMatch(authed.apiUrl, /s3cret/);
    await authed.put(canonicalJsonBytes({ auth: 1 }), 'application/json');
    assert.equal(
      kubo.requests.at(-1)?.authorization,
      `Basic ${Buffer.from('dpp:s3cret').toString('base64')}`,
    );
    assert.equal(kuboStoreFromEnv({}), undefined);
  });

  test('a URL that is not the RPC API (gateway, proxy) is a clear IpfsUnavailableError', async () => {
    const wrong = new KuboContentStore({ apiUrl: `${kubo.url}/not-rpc` });
    await assert.rejects(wrong.put(canonicalJsonBytes({ x: 1 }), 'application/json'), (error: unknown) => {
      assert.ok(error instanceof IpfsUnavailableError);
      assert.match(error.message, /HTTP 404.*RPC API/);
      return true;
    });
  });
});

describe('KuboContentStore when the node is not there', () => {
  test('connection refused', async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    await new Promise<void>((resolve) => server.close(() => resolve()));
    const store = new KuboContentStore({ apiUrl: `http://127.0.0.1:${port}` });
    for (const call of [
      () => store.put(canonicalJsonBytes({ a: 1 }), 'application/json'),
      () => store.get(computeCid(new Uint8Array(0))),
    ]) {
      await assert.rejects(call(), (error: unknown) => {
        assert.ok(error instanceof IpfsUnavailableError);
        assert.ok(error instanceof DomainError);
        assert.equal(error.kind, 'unavailable');
        assert.equal(error.code, 'ipfs_unavailable');
        assert.match(error.message, new RegExp(`127\\.0\\.0\\.1:${port} is unreachable \\(ECONNREFUSED\\)`));
        return true;
      });
    }
  });

  test('a node that never answers times out', async () => {
    const server = createServer(() => {
      // Accept the request and say nothing.
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    try {
      const store = new KuboContentStore({ apiUrl: `http://127.0.0.1:${port}`, timeoutMs: 150 });
      await assert.rejects(store.get(computeCid(new Uint8Array(0))), /did not answer cat within 150 ms/);
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});

describe('sniffContentType', () => {
  test('JSON, common binary signatures, otherwise octet-stream', () => {
    assert.equal(sniffContentType(Buffer.from(' \n[1, {"a": 2}]')), 'application/json');
    assert.equal(sniffContentType(Buffer.from('{"broken": ')), 'application/octet-stream');
    assert.equal(sniffContentType(Buffer.from('"just a string"')), 'application/octet-stream');
    assert.equal(
      sniffContentType(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0])),
      'image/png',
    );
    assert.equal(sniffContentType(Buffer.from([0xff, 0xd8, 0xff, 0xe0])), 'image/jpeg');
    assert.equal(sniffContentType(Buffer.from('%PDF-1.7\n')), 'application/pdf');
    assert.equal(sniffContentType(Buffer.from('RIFF\0\0\0\0WEBPVP8 ')), 'image/webp');
    assert.equal(sniffContentType(Buffer.alloc(0)), 'application/octet-stream');
  });
});
