/**
 * SUN message generator: simulates an NTAG 424 DNA tap (encrypt PICCData, optionally encrypt file
 * data, compute the truncated CMAC) for tests and the dev toolbox. Throws RangeError/TypeError on
 * invalid arguments (caller bugs, not user input).
 */
import { randomBytes } from 'node:crypto';
import { aesCmac, truncateMac } from './aes-cmac.ts';
import { normalizeChipUid } from './chip-uid.ts';
import { toHex } from './hex.ts';
import { chipKey } from './key-diversification.ts';
import { counterToBytes, encryptPiccData, PICC_PADDING_BYTES } from './picc-data.ts';
import { encryptFileData, sessionMacKey } from './session-keys.ts';
import type { SunKeys } from './verify-sun.ts';

export type GenerateSunInput = {
  /** Chip UID in any form accepted by `normalizeChipUid`. */
  uid: string;
  /** SDMReadCtr, 0..16777215. */
  counter: number;
  keys: SunKeys;
  /** Plain file data to mirror as SDMENCFileData (non-empty multiple of 16 bytes). */
  fileData?: Uint8Array;
  /** 5-byte PICCData padding; random like a real chip unless given (to reproduce vectors). */
  piccPadding?: Uint8Array;
  /** Base URL the query is appended to, e.g. `https://id.example.com/tap`. */
  baseUrl?: string;
  /** `long` = picc_data/enc/cmac (AN12196, default), `short` = e/enc/c. */
  paramStyle?: 'long' | 'short';
};

export type GeneratedSun = {
  uid: string;
  counter: number;
  piccData: string;
  encFileData?: string;
  cmac: string;
  /** ASCII text that was MACed (same convention as `parseSunMessage` with `macInputStart: 'auto'`). */
  macInput: string;
  /** `picc_data=...[&enc=...]&cmac=...` */
  query: string;
  /** `${baseUrl}?${query}` when baseUrl was given (`&` if it already has a query). */
  url?: string;
};

export function generateSun(input: GenerateSunInput): GeneratedSun {
  const uid = normalizeChipUid(input.uid);
  if (!uid.ok) throw new TypeError(uid.message);
  const uidBytes = Buffer.from(uid.uid, 'hex');
  const counterBytes = counterToBytes(input.counter);
  const padding = input.piccPadding ?? randomBytes(PICC_PADDING_BYTES);
  // A chip configured with diversified keys holds its own file-read key.
  const diversification = input.keys.fileReadKeyDiversification;
  const fileReadKey = diversification
    ? chipKey(input.keys.fileReadKey, uidBytes, diversification.systemIdentifier)
    : input.keys.fileReadKey;
  const piccData = toHex(encryptPiccData(input.keys.metaReadKey, uidBytes, input.counter, padding));

  const short = input.paramStyle === 'short';
  const piccName = short ? 'e' : 'picc_data';
  const cmacName = short ? 'c' : 'cmac';

  let encFileData: string | undefined;
  let macInput = '';
  let query = `${piccName}=${piccData}&`;
  if (input.fileData !== undefined) {
    if (input.fileData.length === 0 || input.fileData.length % 16 !== 0) {
      throw new RangeError(`fileData must be a non-empty multiple of 16 bytes, got ${input.fileData.length}`);
    }
    encFileData = toHex(encryptFileData(fileReadKey, uidBytes, counterBytes, input.fileData));
    macInput = `${encFileData}&${cmacName}=`;
    query += `enc=${macInput}`;
  } else {
    query += `${cmacName}=`;
  }
  const sesMacKey = sessionMacKey(fileReadKey, uidBytes, counterBytes);
  const cmac = toHex(truncateMac(aesCmac(sesMacKey, Buffer.from(macInput, 'ascii'))));
  query += cmac;

  const result: GeneratedSun = { uid: uid.uid, counter: input.counter, piccData, cmac, macInput, query };
  if (encFileData !== undefined) result.encFileData = encFileData;
  if (input.baseUrl !== undefined) {
    result.url = `${input.baseUrl}${input.baseUrl.includes('?') ? '&' : '?'}${query}`;
  }
  return result;
}
