import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import { test } from 'node:test';
import { deflateSync, gzipSync } from 'node:zlib';
import { installSyncDecompression } from '../../src/temporal-server/grpc-decompression.ts';

// grpc-js's server call, whose decompression the project's Temporal server replaces for small messages.
const { BaseServerInterceptingCall } = createRequire(import.meta.url)(
  '@grpc/grpc-js/build/src/server-interceptors.js',
);
type Decompress = (message: Buffer, encoding: string) => Promise<Buffer>;
const decompress = (maxReceiveMessageSize: number, message: Buffer, encoding: string) =>
  (BaseServerInterceptingCall.prototype.decompressMessage as Decompress).call(
    { maxReceiveMessageSize },
    message,
    encoding,
  );
/** A gRPC length-prefixed message: compressed flag, 4-byte length, payload. */
const framed = (payload: Buffer, compressed = true) => {
  const header = Buffer.alloc(5);
  header.writeUInt8(compressed ? 1 : 0, 0);
  header.writeUInt32BE(payload.length, 1);
  return Buffer.concat([header, payload]);
};

test('installs into grpc-js and inflates gzip and deflate requests to the same bytes', async () => {
  assert.equal(installSyncDecompression(), true);
  const request = Buffer.from(JSON.stringify({ namespace: 'default', identity: 'worker@host', n: 42 }));
  assert.deepEqual(await decompress(-1, framed(gzipSync(request)), 'gzip'), request);
  assert.deepEqual(await decompress(-1, framed(deflateSync(request)), 'deflate'), request);
  assert.deepEqual(await decompress(-1, framed(request, false), 'identity'), request);
});

test('large compressed messages keep grpc-js streaming path and arrive intact', async () => {
  installSyncDecompression();
  const large = randomBytes(400 * 1024); // incompressible: > 256 KiB compressed
  assert.deepEqual(await decompress(-1, framed(gzipSync(large)), 'gzip'), large);
});

test('corrupt data and messages over the size limit are refused as grpc-js refuses them', async () => {
  installSyncDecompression();
  await assert.rejects(decompress(-1, framed(Buffer.from('not gzip at all')), 'gzip'), {
    code: 13,
    details: 'Failed to decompress message',
  });
  const bomb = gzipSync(Buffer.alloc(1024 * 1024));
  await assert.rejects(decompress(64 * 1024, framed(bomb), 'gzip'), {
    code: 8,
    details: 'Received message that decompresses to a size larger than 65536',
  });
  await assert.rejects(decompress(-1, framed(Buffer.from('x')), 'snappy'), { code: 12 });
});
