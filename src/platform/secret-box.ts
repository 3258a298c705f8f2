import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

const VERSION = 1;
const DEV_KEY = createHash('sha256').update('dpp-development-only-data-key').digest();

/**
 * AES-256-GCM for small secrets at rest (chip keys). Layout: version byte, 12-byte nonce, ciphertext,
 * 16-byte tag. Without a configured key a fixed development key is used: fine for the test environment on
 * a laptop, never for live data (docs/configuration.md says so, and the launcher warns).
 */
export class SecretBox {
  readonly #key: Buffer;
  readonly usesDevelopmentKey: boolean;

  constructor(key: Buffer | undefined) {
    if (key && key.length !== 32) throw new Error('SecretBox needs a 32-byte key');
    this.#key = key ?? DEV_KEY;
    this.usesDevelopmentKey = !key;
  }

  seal(plain: Buffer, context: string): Buffer {
    const nonce = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.#key, nonce);
    cipher.setAAD(Buffer.from(context));
    const body = Buffer.concat([cipher.update(plain), cipher.final()]);
    return Buffer.concat([Buffer.from([VERSION]), nonce, body, cipher.getAuthTag()]);
  }

  open(sealed: Buffer, context: string): Buffer {
    if (sealed.length < 29 || sealed[0] !== VERSION) throw new Error('sealed secret has an unknown format');
    const decipher = createDecipheriv('aes-256-gcm', this.#key, sealed.subarray(1, 13));
    decipher.setAAD(Buffer.from(context));
    decipher.setAuthTag(sealed.subarray(sealed.length - 16));
    return Buffer.concat([decipher.update(sealed.subarray(13, sealed.length - 16)), decipher.final()]);
  }
}
