/**
 * Strict hex helpers shared by the SUN module. Parsing never throws: callers get `null`
 * (or a message) back so that bad tap data can be reported as `malformed`.
 */

const HEX_RE = /^[0-9a-fA-F]*$/;

export type HexParse = { ok: true; bytes: Buffer } | { ok: false; message: string };

/**
 * Parse a hex string (upper or lower case, no separators) or copy a byte array.
 * `expectedBytes` enforces an exact length; `blockMultiple` enforces a non-empty multiple.
 */
export function parseBytes(
  label: string,
  input: unknown,
  opts: { expectedBytes?: number; blockMultiple?: number } = {},
): HexParse {
  let bytes: Buffer;
  if (typeof input === 'string') {
    if (input.length % 2 !== 0) {
      return { ok: false, message: `${label} has an odd number of hex digits (${input.length})` };
    }
    if (!HEX_RE.test(input)) {
      return { ok: false, message: `${label} contains characters that are not hex digits` };
    }
    bytes = Buffer.from(input, 'hex');
  } else if (input instanceof Uint8Array) {
    bytes = Buffer.from(input);
  } else {
    return { ok: false, message: `${label} must be a hex string or a byte array` };
  }
  if (opts.expectedBytes !== undefined && bytes.length !== opts.expectedBytes) {
    return {
      ok: false,
      message: `${label} must be ${opts.expectedBytes} bytes (${opts.expectedBytes * 2} hex digits), got ${bytes.length}`,
    };
  }
  if (opts.blockMultiple !== undefined && (bytes.length === 0 || bytes.length % opts.blockMultiple !== 0)) {
    return {
      ok: false,
      message: `${label} must be a non-empty multiple of ${opts.blockMultiple} bytes, got ${bytes.length}`,
    };
  }
  return { ok: true, bytes };
}

/** Uppercase hex, the form the chip mirrors into the URL. */
export function toHex(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString('hex').toUpperCase();
}
