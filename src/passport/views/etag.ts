import { hash } from 'node:crypto';

/** A strong ETag for a representation's bytes (SHA-256, base64url, 160 bits; one-shot, no hash object). */
export function etagOf(body: string): string {
  return `"${hash('sha256', body, 'base64url').slice(0, 27)}"`;
}
