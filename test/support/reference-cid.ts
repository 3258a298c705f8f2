import { createRequire } from 'node:module';

// ipfs-only-hash (js-ipfs-unixfs-importer) is an independent implementation of Kubo's importer.
const Hash = createRequire(import.meta.url)('ipfs-only-hash') as {
  of(content: Uint8Array, options: { cidVersion: 1; rawLeaves: boolean }): Promise<string>;
};

/**
 * The CID `ipfs add --cid-version 1 --raw-leaves` gives these bytes, computed independently of our code
 * (`rawLeaves: false` imitates a node importing without raw leaves).
 */
export function referenceCid(bytes: Uint8Array, options: { rawLeaves?: boolean } = {}): Promise<string> {
  return Hash.of(bytes, { cidVersion: 1, rawLeaves: options.rawLeaves ?? true });
}
