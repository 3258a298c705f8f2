/**
 * NTAG 424 DNA TagTamper (NT4H2421Tx): the chip can mirror its tamper status (TTStatus) into the SUN message,
 * two ASCII bytes — the permanent status (has the loop ever been open since tamper detection was enabled) then
 * the current one — each 'C' (closed), 'O' (open) or 'I' (invalid: detection not enabled). We read it from the
 * start of the decrypted SDMENCFileData, where it is encrypted and covered by the SUN MAC (a plain mirror
 * outside the MACed part could be rewritten by anyone who copies the URL).
 */
export type LoopState = 'closed' | 'open' | 'invalid';

export interface TagTamperStatus {
  permanent: LoopState;
  current: LoopState;
  /** The loop is open now or has been since detection was enabled. */
  tampered: boolean;
}

const STATE: Record<string, LoopState> = { C: 'closed', O: 'open', I: 'invalid' };

/** The tamper status at the start of the decrypted file data, or null when those bytes are not one. */
export function tagTamperStatus(fileData: Uint8Array | undefined): TagTamperStatus | null {
  if (!fileData || fileData.length < 2) return null;
  const permanent = STATE[String.fromCharCode(fileData[0]!)];
  const current = STATE[String.fromCharCode(fileData[1]!)];
  if (!permanent || !current) return null;
  return { permanent, current, tampered: permanent === 'open' || current === 'open' };
}
