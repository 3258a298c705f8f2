import { DomainError } from '../../platform/errors.ts';

/** The largest logo we store: a logo for a phone's header needs far less. */
export const MAX_LOGO_BYTES = 256 * 1024;

export type LogoType = 'image/png' | 'image/jpeg' | 'image/webp' | 'image/svg+xml';

const startsWith = (bytes: Uint8Array, prefix: readonly number[], at = 0) =>
  prefix.every((byte, index) => bytes[at + index] === byte);

/**
 * SVG constructs that could run script, load anything or reach outside the image: an SVG logo with any of them
 * is refused rather than rewritten (a rewrite that misses a case would be served from our origin).
 */
const UNSAFE_SVG = [
  /<script/i,
  /<foreignObject/i,
  /<!DOCTYPE|<!ENTITY/i,
  /\son[a-z]+\s*=/i,
  /href\s*=\s*(?:"(?!#)|'(?!#)|(?![\s"'#]))/i,
  /url\(\s*(?:"(?!#)|'(?!#)|(?![\s"'#]))/i,
  /@import/i,
  /javascript:/i,
  /<(?:iframe|embed|object|audio|video|image|use)\b/i,
];

/**
 * What an uploaded logo is, from its bytes (never from what the upload claims): PNG, JPEG or WebP by their
 * signatures, SVG when it is an `<svg>` document with nothing in it that loads or runs anything. Anything else,
 * or more than MAX_LOGO_BYTES: refused.
 */
export function sniffLogo(bytes: Uint8Array): LogoType {
  if (bytes.length === 0) throw new DomainError('invalid', 'logo_invalid', 'The logo is empty.');
  if (bytes.length > MAX_LOGO_BYTES) {
    throw new DomainError(
      'invalid',
      'logo_too_large',
      `The logo is ${bytes.length} bytes; at most ${MAX_LOGO_BYTES} (256 KiB) are stored.`,
    );
  }
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (startsWith(bytes, [0x52, 0x49, 0x46, 0x46]) && startsWith(bytes, [0x57, 0x45, 0x42, 0x50], 8)) {
    return 'image/webp';
  }
  const text = new TextDecoder('utf-8', { fatal: false })
    .decode(bytes)
    .replace(/^\uFEFF/, '')
    .trimStart();
  if (/^(<\?xml[^>]*\?>\s*)?(<!--[\s\S]*?-->\s*)*<svg[\s>]/i.test(text)) {
    const unsafe = UNSAFE_SVG.find((pattern) => pattern.test(text));
    if (unsafe) {
      throw new DomainError(
        'invalid',
        'logo_unsafe_svg',
        'The SVG logo contains script, event handlers, external references or embedded content; export it as plain shapes, or upload a PNG, JPEG or WebP.',
      );
    }
    return 'image/svg+xml';
  }
  throw new DomainError('invalid', 'logo_type', 'The logo must be a PNG, JPEG, WebP or SVG image.');
}
