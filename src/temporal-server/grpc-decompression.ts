import { createRequire } from 'node:module';
import { gunzipSync, inflateSync } from 'node:zlib';

/**
 * The SDK's Core (Rust) client gzips every request. grpc-js decompresses each message through a fresh zlib
 * stream (an inflate context, a Transform stream and a thread-pool round trip): 60–110 µs of CPU per request,
 * about a quarter of this server's CPU per workflow. A request of a few hundred bytes inflates in one
 * synchronous call for a fraction of that, so small messages are inflated that way; large ones (which could
 * hold the event loop) keep grpc-js's streaming path. The size limit and the error answers stay grpc-js's.
 */
const SYNC_LIMIT_BYTES = 256 * 1024;
const STATUS_INTERNAL = 13;
const STATUS_RESOURCE_EXHAUSTED = 8;

type Decompress = (this: CallState, message: Buffer, encoding: string) => Promise<Buffer> | Buffer;
interface CallState {
  maxReceiveMessageSize: number;
}

let installed = false;

/**
 * Installs the synchronous path into grpc-js's server calls, once per process. Returns whether it is in place
 * (false if grpc-js no longer has the method this replaces: then its own path simply stays).
 */
export function installSyncDecompression(): boolean {
  if (installed) return true;
  let prototype: { decompressMessage?: Decompress } | undefined;
  try {
    const require = createRequire(import.meta.url);
    prototype = require('@grpc/grpc-js/build/src/server-interceptors.js').BaseServerInterceptingCall
      ?.prototype;
  } catch {
    return false;
  }
  const streaming = prototype?.decompressMessage;
  if (!prototype || typeof streaming !== 'function' || streaming.length !== 2) return false;
  installed = true;
  prototype.decompressMessage = function (this: CallState, message: Buffer, encoding: string) {
    const contents = message.subarray(5);
    if ((encoding !== 'gzip' && encoding !== 'deflate') || contents.length > SYNC_LIMIT_BYTES) {
      return streaming.call(this, message, encoding);
    }
    const limit = this.maxReceiveMessageSize;
    try {
      const options = limit === -1 ? {} : { maxOutputLength: limit };
      return Promise.resolve(
        encoding === 'gzip' ? gunzipSync(contents, options) : inflateSync(contents, options),
      );
    } catch (error) {
      const tooLarge = (error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE';
      return Promise.reject(
        tooLarge
          ? {
              code: STATUS_RESOURCE_EXHAUSTED,
              details: `Received message that decompresses to a size larger than ${limit}`,
            }
          : { code: STATUS_INTERNAL, details: 'Failed to decompress message' },
      );
    }
  };
  return true;
}
