/**
 * SUN verification (AES mode, AN12196). Pure: no I/O, no counter persistence. The caller must
 * store the returned counter per UID and reject taps whose counter is not strictly greater
 * (replay protection is not possible here).
 *
 * Bad tap data never throws: it yields `{ ok: false, reason, message }`. Only caller mistakes
 * (keys that are not 16 bytes, an invalid `expectedUid`) throw a TypeError.
 */
import { timingSafeEqual } from 'node:crypto';
import { aesCmac, truncateMac } from './aes-cmac.ts';
import { chipUidFromBytes, normalizeChipUid } from './chip-uid.ts';
import { type ChipType, NTAG_424_DNA, SDM_MAC_BYTES } from './constants.ts';
import { parseBytes, toHex } from './hex.ts';
import { chipKey } from './key-diversification.ts';
import { decryptPiccData, PICC_DATA_BYTES } from './picc-data.ts';
import { decryptFileData, sessionMacKey } from './session-keys.ts';

export type SunKeys = {
  /** K_SDMMetaRead: decrypts PICCData. */
  metaReadKey: Uint8Array;
  /** K_SDMFileRead: derives the MAC and ENC session keys (the master key when diversified). */
  fileReadKey: Uint8Array;
  /**
   * Each chip carries its own K_SDMFileRead, diversified from `fileReadKey` per AN10922 with input
   * UID || systemIdentifier (the UID comes from the decrypted PICCData, so the meta-read key cannot be).
   */
  fileReadKeyDiversification?: { systemIdentifier: Uint8Array } | undefined;
};

export type VerifySunInput = {
  /** Encrypted PICCData, 16 bytes (32 hex digits, any case). */
  piccData: string | Uint8Array;
  /** Truncated SDMMAC, 8 bytes (16 hex digits, any case). */
  cmac: string | Uint8Array;
  /** SDMENCFileData, a non-empty multiple of 16 bytes. */
  encFileData?: string | Uint8Array;
  /**
   * Exact bytes the chip MACed (DynamicFileData[SDMMACInputOffset .. SDMMACOffset-1]); strings are
   * taken as their UTF-8/ASCII bytes. Empty/absent when SDMMACInputOffset == SDMMACOffset.
   * Use `parseSunMessage` to derive it from a URL.
   */
  macInput?: string | Uint8Array;
  keys: SunKeys;
  /** If set, a genuine tap from another chip is reported as `uid_mismatch`. Any accepted UID form. */
  expectedUid?: string;
};

export type SunFailureReason = 'malformed' | 'bad_tag' | 'uid_mismatch' | 'bad_cmac';

export type SunSuccess = {
  ok: true;
  /** Canonical chip UID: 14 uppercase hex digits. */
  uid: string;
  /** SDMReadCtr as an integer (0..16777215). */
  counter: number;
  /** Decrypted SDMENCFileData, present only when `encFileData` was given. */
  fileData?: Buffer;
  chipType: ChipType;
};

export type SunFailure = { ok: false; reason: SunFailureReason; message: string };

export type SunResult = SunSuccess | SunFailure;

/** Failure result (shared with the LRP verifier). */
export function fail(reason: SunFailureReason, message: string): SunFailure {
  return { ok: false, reason, message };
}

/** Throws TypeError unless `key` is a 16-byte key (a caller mistake, not bad tap data). */
export function assertKey(name: string, key: unknown): asserts key is Uint8Array {
  if (!(key instanceof Uint8Array) || key.length !== 16) {
    throw new TypeError(`keys.${name} must be a 16-byte AES-128 key`);
  }
}

/** MAC input as bytes (strings as UTF-8); null when it is neither a string nor a byte array. */
export function macInputBytes(macInput: string | Uint8Array | undefined): Buffer | null {
  if (macInput === undefined) return Buffer.alloc(0);
  if (typeof macInput === 'string') return Buffer.from(macInput, 'utf8');
  if (macInput instanceof Uint8Array) return Buffer.from(macInput);
  return null;
}

/** Canonical form of `expectedUid`; throws TypeError when it is given but invalid (a caller mistake). */
export function parseExpectedUid(expectedUid: string | undefined): string | undefined {
  if (expectedUid === undefined) return undefined;
  const normalized = normalizeChipUid(expectedUid);
  if (!normalized.ok) throw new TypeError(`expectedUid: ${normalized.message}`);
  return normalized.uid;
}

/**
 * SDMENCFileData must lie inside the MACed range (AN12196: SDMMACInputOffset == ENC offset);
 * otherwise the decrypted file data would be unauthenticated. The chip mirrors upper-case hex.
 */
export function encFileDataIsMaced(macInput: Buffer, encFileData: Uint8Array): boolean {
  return macInput.toString('latin1').toUpperCase().includes(toHex(encFileData));
}

/** Verify one SUN message (PICCData encrypted, CMAC, optional SDMENCFileData). */
export function verifySun(input: VerifySunInput): SunResult {
  assertKey('metaReadKey', input.keys?.metaReadKey);
  assertKey('fileReadKey', input.keys?.fileReadKey);
  const expectedUid = parseExpectedUid(input.expectedUid);

  const picc = parseBytes('piccData', input.piccData, { expectedBytes: PICC_DATA_BYTES });
  if (!picc.ok) return fail('malformed', picc.message);
  const cmac = parseBytes('cmac', input.cmac, { expectedBytes: SDM_MAC_BYTES });
  if (!cmac.ok) return fail('malformed', cmac.message);
  let encFileData: Buffer | undefined;
  if (input.encFileData !== undefined) {
    const enc = parseBytes('encFileData', input.encFileData, { blockMultiple: 16 });
    if (!enc.ok) return fail('malformed', enc.message);
    encFileData = enc.bytes;
  }
  const macInput = macInputBytes(input.macInput);
  if (macInput === null) return fail('malformed', 'macInput must be a string or a byte array');
  if (encFileData !== undefined && !encFileDataIsMaced(macInput, encFileData)) {
    return fail('malformed', 'encFileData is not covered by macInput, so it cannot be authenticated');
  }

  const decoded = decryptPiccData(input.keys.metaReadKey, picc.bytes);
  if (!decoded.ok) return fail('bad_tag', decoded.message);
  const { uid, counterBytes, counter } = decoded.picc;
  const fileReadKey = chipFileReadKey(input.keys, uid);
  const sesMacKey = sessionMacKey(fileReadKey, uid, counterBytes);
  return verdict({
    expectedMac: truncateMac(aesCmac(sesMacKey, macInput)),
    cmac: cmac.bytes,
    mode: 'AES',
    uid,
    counter,
    expectedUid,
    fileData: encFileData && (() => decryptFileData(fileReadKey, uid, counterBytes, encFileData)),
  });
}

/** The chip's K_SDMFileRead: the configured key, or its AN10922 diversification for this UID. */
export function chipFileReadKey(keys: SunKeys, uid: Uint8Array): Uint8Array {
  const diversification = keys.fileReadKeyDiversification;
  return diversification
    ? chipKey(keys.fileReadKey, uid, diversification.systemIdentifier)
    : keys.fileReadKey;
}

/** The answer once the PICCData is decrypted (either mode): MAC compared in constant time, then the UID. */
export function verdict(tap: {
  expectedMac: Buffer;
  cmac: Buffer;
  mode: 'AES' | 'LRP';
  uid: Uint8Array;
  counter: number;
  expectedUid: string | undefined;
  fileData: (() => Buffer) | undefined;
}): SunResult {
  if (!timingSafeEqual(tap.expectedMac, tap.cmac)) {
    return fail(
      'bad_cmac',
      `SUN CMAC${tap.mode === 'LRP' ? ' (LRP)' : ''} does not match (tampered URL, wrong SDM file-read key or wrong MAC input)`,
    );
  }
  const uidHex = chipUidFromBytes(tap.uid);
  if (tap.expectedUid !== undefined && uidHex !== tap.expectedUid) {
    return fail('uid_mismatch', `tap is from chip ${uidHex}, expected ${tap.expectedUid}`);
  }
  const result: SunSuccess = { ok: true, uid: uidHex, counter: tap.counter, chipType: NTAG_424_DNA };
  if (tap.fileData) result.fileData = tap.fileData();
  return result;
}
