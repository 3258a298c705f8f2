import { createPrivateKey, createPublicKey, type KeyObject, randomBytes, sign, verify } from 'node:crypto';
import { ed25519PublicMultikey } from './multibase.ts';

// RFC 8410: PKCS#8 and SPKI DER of an Ed25519 key are a fixed prefix and the 32 key bytes.
const PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');
const SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');

export interface Ed25519KeyPair {
  privateKey: KeyObject;
  /** The raw 32-byte public key. */
  publicKey: Buffer;
  /** `z6Mk…` */
  publicKeyMultibase: string;
}

/** The key pair of a 32-byte Ed25519 seed (the secret key as RFC 8032 defines it). */
export function ed25519FromSeed(seed: Uint8Array): Ed25519KeyPair {
  if (seed.length !== 32) throw new TypeError('an Ed25519 seed has 32 bytes');
  const privateKey = createPrivateKey({
    key: Buffer.concat([PKCS8_PREFIX, seed]),
    format: 'der',
    type: 'pkcs8',
  });
  const spki = createPublicKey(privateKey).export({ format: 'der', type: 'spki' });
  const publicKey = Buffer.from(spki.subarray(SPKI_PREFIX.length));
  return { privateKey, publicKey, publicKeyMultibase: ed25519PublicMultikey(publicKey) };
}

export function newEd25519Seed(): Buffer {
  return randomBytes(32);
}

export function ed25519Sign(privateKey: KeyObject, data: Uint8Array): Buffer {
  return sign(null, data, privateKey);
}

export function ed25519Verify(publicKey: Uint8Array, data: Uint8Array, signature: Uint8Array): boolean {
  const key = createPublicKey({ key: Buffer.concat([SPKI_PREFIX, publicKey]), format: 'der', type: 'spki' });
  return signature.length === 64 && verify(null, data, key, signature);
}
