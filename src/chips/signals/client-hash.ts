import { createHmac } from 'node:crypto';

/**
 * Who presented a tap, as a keyed hash of their address: enough to count distinct clients of a copied URL,
 * never the address itself (an unkeyed hash of an IPv4 address is reversed by trying all 2^32). `key` is a
 * server secret (the verdict key); the same address gives the same hash on every server of the deployment.
 */
export function clientHash(key: Buffer, address: string | undefined): string | undefined {
  if (!address) return undefined;
  return createHmac('sha256', key).update(`tap-client/1:${address}`).digest('base64url').slice(0, 16);
}
