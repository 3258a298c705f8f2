/**
 * Chip UID normalisation. Canonical form: uppercase hex without separators,
 * 7 bytes (14 hex digits) for NTAG 424 DNA, e.g. `04DE5F1EACC040`.
 */
import { NTAG_424_DNA_UID_BYTES } from './constants.ts';

export type ChipUidResult = { ok: true; uid: string } | { ok: false; message: string };

const PLAIN_RE = /^[0-9a-fA-F]+$/;
const COLON_RE = /^[0-9a-fA-F]{2}(?::[0-9a-fA-F]{2})*$/;

/**
 * Accepts `04DE5F1EACC040`, `04de5f1eacc040` or colon-separated byte pairs `04:de:5f:1e:ac:c0:40`
 * (surrounding whitespace ignored). Anything else is rejected with a message.
 */
export function normalizeChipUid(input: unknown): ChipUidResult {
  if (typeof input !== 'string') {
    return { ok: false, message: 'chip UID must be a string of hex digits' };
  }
  const trimmed = input.trim();
  if (trimmed === '') {
    return { ok: false, message: 'chip UID is empty' };
  }
  let hex: string;
  if (trimmed.includes(':')) {
    if (!COLON_RE.test(trimmed)) {
      return {
        ok: false,
        message: `chip UID "${trimmed}" is not colon-separated byte pairs (expected e.g. 04:DE:5F:1E:AC:C0:40)`,
      };
    }
    hex = trimmed.replaceAll(':', '');
  } else {
    if (!PLAIN_RE.test(trimmed)) {
      return { ok: false, message: `chip UID "${trimmed}" contains characters that are not hex digits` };
    }
    hex = trimmed;
  }
  const expectedDigits = NTAG_424_DNA_UID_BYTES * 2;
  if (hex.length !== expectedDigits) {
    return {
      ok: false,
      message: `chip UID must be ${NTAG_424_DNA_UID_BYTES} bytes (${expectedDigits} hex digits) for NTAG 424 DNA, got ${hex.length} hex digits`,
    };
  }
  return { ok: true, uid: hex.toUpperCase() };
}

/** Canonical UID string for raw UID bytes. */
export function chipUidFromBytes(uid: Uint8Array): string {
  return Buffer.from(uid).toString('hex').toUpperCase();
}
