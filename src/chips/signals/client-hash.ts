import { createHmac, createSecretKey, type KeyObject } from 'node:crypto';

// A KeyObject made once per key: createHmac with a raw Buffer imports the key again on every call (8 µs of 9).
const imported = new WeakMap<Buffer, KeyObject>();

/**
 * Who presented a tap, as a keyed hash of their address: enough to count distinct clients of a copied URL,
 * never the address itself (an unkeyed hash of an IPv4 address is reversed by trying all 2^32). `key` is a
 * server secret (the verdict key); the same address gives the same hash on every server of the deployment.
 */
export function clientHash(key: Buffer, address: string | undefined): string | undefined {
  if (!address) return undefined;
  let secret = imported.get(key);
  if (!secret) {
    secret = createSecretKey(key);
    imported.set(key, secret);
  }
  return createHmac('sha256', secret).update(`tap-client/1:${address}`).digest('base64url').slice(0, 16);
}
