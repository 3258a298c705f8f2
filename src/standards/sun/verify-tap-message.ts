import { type MacInputStart, parseSunMessage } from './sun-url.ts';
import { fail, type SunKeys, type SunResult, type VerifySunInput, verifySun } from './verify-sun.ts';
import { LRP_PICC_DATA_BYTES, verifySunLrp } from './verify-sun-lrp.ts';

/**
 * Verifies a tap in the mode the chip signed it: LRP when the PICCData is 24 bytes (PICCRand || encrypted
 * PICCData), AES when it is 16. The mode is a per-chip setting (SetConfiguration), so one company's chips may
 * use either with the same keys.
 */
export function verifyTapInEitherMode(input: VerifySunInput): SunResult {
  const hexLength =
    typeof input.piccData === 'string' ? input.piccData.trim().length : input.piccData.length * 2;
  return hexLength === LRP_PICC_DATA_BYTES * 2 ? verifySunLrp(input) : verifySun(input);
}

/**
 * Parse `nfcData` (whole URL or query string, see src/standards/sun/README.md) and verify it in one step, in either mode.
 * Parse failures are reported as `malformed`.
 */
export function verifySunMessage(
  nfcData: string,
  options: { keys: SunKeys; expectedUid?: string; macInputStart?: MacInputStart },
): SunResult {
  const parsed = parseSunMessage(nfcData, { macInputStart: options.macInputStart ?? 'auto' });
  if (!parsed.ok) return fail('malformed', parsed.message);
  return verifyTapInEitherMode({
    piccData: parsed.piccData,
    cmac: parsed.cmac,
    encFileData: parsed.encFileData,
    macInput: parsed.macInput,
    keys: options.keys,
    expectedUid: options.expectedUid,
  });
}
