import { gunzipSync, gzipSync } from 'node:zlib';
import type { Environment } from '../../platform/config/config.ts';
import { CREDENTIALS_V2_CONTEXT } from './contexts.ts';

/**
 * Entries per status list: 131,072 (16 KiB), the W3C Bitstring Status List's minimum for herd privacy, so a
 * verifier fetching a list learns nothing about which of its many credentials it is checking.
 */
export const STATUS_LIST_SIZE = 131_072;

/**
 * Indexes are drawn at random, so neighbours in a list say nothing about issuance order. A list takes new
 * entries until it is this full; then the next list opens (random draws stay cheap).
 */
export const STATUS_LIST_CAPACITY = Math.floor(STATUS_LIST_SIZE * 0.75);

export const STATUS_LIST_PATH = '/credentials/status/:environment/:list';

export function statusListUrl(publicBaseUrl: string, environment: Environment, list: number): string {
  return `${publicBaseUrl}/credentials/status/${environment}/${list}`;
}

/**
 * `encodedList`: the bitstring (bit 0 = the most significant bit of the first byte) GZIP-compressed and written
 * as multibase base64url without padding (`u…`), as the W3C Bitstring Status List 1.0 specifies.
 */
export function encodeStatusList(setIndexes: Iterable<number>, size = STATUS_LIST_SIZE): string {
  const bits = Buffer.alloc(size / 8);
  for (const index of setIndexes) {
    if (!Number.isInteger(index) || index < 0 || index >= size) throw new RangeError(`index ${index}`);
    bits[index >> 3]! |= 0x80 >> (index & 7);
  }
  return `u${gzipSync(bits, { level: 9 }).toString('base64url')}`;
}

/** Reads one bit of an `encodedList` (for tests and diagnostics). */
export function statusBit(encodedList: string, index: number): boolean {
  if (!encodedList.startsWith('u')) throw new TypeError('encodedList must be multibase base64url (u…)');
  const bits = gunzipSync(Buffer.from(encodedList.slice(1), 'base64url'));
  return ((bits[index >> 3] ?? 0) & (0x80 >> (index & 7))) !== 0;
}

/** The unsigned BitstringStatusListCredential of one list (revocation purpose). */
export function statusListCredential(input: {
  url: string;
  issuer: string;
  validFrom: string;
  encodedList: string;
}): Record<string, unknown> & { '@context': string[] } {
  return {
    '@context': [CREDENTIALS_V2_CONTEXT],
    id: input.url,
    type: ['VerifiableCredential', 'BitstringStatusListCredential'],
    issuer: input.issuer,
    validFrom: input.validFrom,
    credentialSubject: {
      id: `${input.url}#list`,
      type: 'BitstringStatusList',
      statusPurpose: 'revocation',
      encodedList: input.encodedList,
    },
  };
}
