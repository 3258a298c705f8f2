import { createHash } from 'node:crypto';

/** A strong ETag for a representation's bytes (SHA-256, base64url, 160 bits). */
export function etagOf(body: string): string {
  return `"${createHash('sha256').update(body, 'utf8').digest('base64url').slice(0, 27)}"`;
}
