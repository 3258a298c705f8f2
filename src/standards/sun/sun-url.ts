/**
 * Parser for the `nfcData` a mint/verify call receives: a whole SUN URL or just its query string.
 * See README.md for the accepted forms. Never throws.
 */
import { SDM_MAC_BYTES } from './constants.ts';
import { parseBytes, toHex } from './hex.ts';
import { PICC_DATA_BYTES } from './picc-data.ts';

/** LRP mode's PICCData: PICCRand (8 bytes) || encrypted PICCData (16 bytes). */
const LRP_PICC_DATA_BYTES = PICC_DATA_BYTES + 8;

/** Query parameter names per role, matched case-insensitively. */
export const SUN_PARAM_NAMES = {
  piccData: ['picc_data', 'e'],
  encFileData: ['enc'],
  cmac: ['cmac', 'c'],
} as const;

type Role = keyof typeof SUN_PARAM_NAMES;

/**
 * Where the chip's MAC input (SDMMACInputOffset) starts:
 * - `auto` (default, AN12196 layout): at the `enc` value when present, otherwise empty input
 *   (SDMMACInputOffset == SDMMACOffset);
 * - `picc_data`: at the PICCData value (tags personalised with SDMMACInputOffset == PICCDataOffset).
 */
export type MacInputStart = 'auto' | 'picc_data';

export type ParsedSunMessage = {
  ok: true;
  /** Uppercase hex, 32 digits (AES mode) or 48 (LRP mode: PICCRand || encrypted PICCData). */
  piccData: string;
  /** Uppercase hex, multiple of 32 digits. */
  encFileData?: string;
  /** Uppercase hex, 16 digits. */
  cmac: string;
  /** The exact ASCII text the chip MACed ('' when nothing was MACed). */
  macInput: string;
};

export type SunParseResult = ParsedSunMessage | { ok: false; reason: 'malformed'; message: string };

/** A tap's SUN message as the API and the workflows carry it (hex strings, the MACed text when known). */
export interface SunPayload {
  piccData: string;
  cmac: string;
  encFileData?: string | undefined;
  macInput?: string | undefined;
}

/** The parts a tap's verification needs of a parsed SUN message (parseSunMessage). */
export function sunPayloadOf(parsed: {
  piccData: string;
  cmac: string;
  encFileData?: string | undefined;
  macInput: string;
}): SunPayload {
  return {
    piccData: parsed.piccData,
    cmac: parsed.cmac,
    encFileData: parsed.encFileData,
    macInput: parsed.macInput,
  };
}

type Param = { role: Role; name: string; valueStart: number; value: string };

const SCHEME_RE = /^[a-z][a-z0-9+.-]*:\/\//i;

function malformed(message: string): SunParseResult {
  return { ok: false, reason: 'malformed', message };
}

/**
 * A tap's URL or query copied into another URL's parameter arrives percent-encoded once
 * (`picc_data%3D…%26cmac%3D…`): with no `=` of its own, it is decoded first.
 */
function decodedOnce(text: string): string {
  if (text.includes('=') || !/%3D/i.test(text)) return text;
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** What the refusal of an nfcData without a verifiable SUN says: the forms that are accepted. */
const ACCEPTED_FORMS =
  'send the tapped SUN URL or its query parameters (picc_data=…&cmac=…, or e=…&c=…, optionally enc=…; with ' +
  'or without a leading ?; other parameters such as a plain counter are ignored): a counter without the ' +
  'encrypted PICCData and its CMAC cannot be verified';

function extractQuery(nfcData: string): { ok: true; query: string } | { ok: false; message: string } {
  const trimmed = decodedOnce(nfcData.trim());
  if (trimmed === '') return { ok: false, message: 'nfcData is empty' };
  const withoutFragment = trimmed.split('#', 1)[0] ?? '';
  const questionMark = withoutFragment.indexOf('?');
  if (questionMark >= 0) return { ok: true, query: withoutFragment.slice(questionMark + 1) };
  if (SCHEME_RE.test(withoutFragment)) {
    return { ok: false, message: 'nfcData is a URL without a query string (no SUN parameters)' };
  }
  return { ok: true, query: withoutFragment };
}

function roleOf(name: string): Role | undefined {
  const lower = name.toLowerCase();
  for (const role of Object.keys(SUN_PARAM_NAMES) as Role[]) {
    if ((SUN_PARAM_NAMES[role] as readonly string[]).includes(lower)) return role;
  }
  return undefined;
}

/** Parse a SUN URL or query string into its parts and the chip's MAC input. */
export function parseSunMessage(
  nfcData: unknown,
  options: { macInputStart?: MacInputStart } = {},
): SunParseResult {
  if (typeof nfcData !== 'string') return malformed('nfcData must be a string');
  const extracted = extractQuery(nfcData);
  if (!extracted.ok) return malformed(extracted.message);
  const { query } = extracted;

  const found: Partial<Record<Role, Param>> = {};
  let offset = 0;
  for (const segment of query.split('&')) {
    const eq = segment.indexOf('=');
    const name = eq >= 0 ? segment.slice(0, eq) : segment;
    const role = roleOf(name);
    if (role !== undefined) {
      const previous = found[role];
      if (previous !== undefined) {
        return malformed(`nfcData has more than one ${role} parameter ("${previous.name}" and "${name}")`);
      }
      const valueStart = eq >= 0 ? offset + eq + 1 : offset + segment.length;
      found[role] = { role, name, valueStart, value: eq >= 0 ? segment.slice(eq + 1) : '' };
    }
    offset += segment.length + 1;
  }

  const { piccData, encFileData, cmac } = found;
  if (piccData === undefined)
    return malformed(`nfcData has no picc_data (or e) parameter: ${ACCEPTED_FORMS}`);
  if (cmac === undefined) return malformed(`nfcData has no cmac (or c) parameter: ${ACCEPTED_FORMS}`);

  // 16 bytes: AES mode; 24 bytes (PICCRand || encrypted PICCData): LRP mode.
  const lrp = piccData.value.length === LRP_PICC_DATA_BYTES * 2;
  const picc = parseBytes(piccData.name, piccData.value, {
    expectedBytes: lrp ? LRP_PICC_DATA_BYTES : PICC_DATA_BYTES,
  });
  if (!picc.ok) return malformed(picc.message);
  const mac = parseBytes(cmac.name, cmac.value, { expectedBytes: SDM_MAC_BYTES });
  if (!mac.ok) return malformed(mac.message);
  let enc: Buffer | undefined;
  if (encFileData !== undefined) {
    const parsed = parseBytes(encFileData.name, encFileData.value, { blockMultiple: 16 });
    if (!parsed.ok) return malformed(parsed.message);
    enc = parsed.bytes;
  }

  const start = options.macInputStart === 'picc_data' ? piccData : encFileData;
  let macInput = '';
  if (start !== undefined) {
    if (start.valueStart > cmac.valueStart) {
      return malformed(
        `the ${cmac.name} parameter must come after ${start.name} (the chip MACs up to the CMAC)`,
      );
    }
    const end = cmac.valueStart;
    if (
      encFileData !== undefined &&
      (encFileData.valueStart < start.valueStart || encFileData.valueStart > end)
    ) {
      return malformed(`the ${encFileData.name} value must lie between ${start.name} and ${cmac.name}`);
    }
    macInput = query.slice(start.valueStart, end);
    // The chip mirrors hex in uppercase; restore that if the URL was lower-cased on the way.
    for (const p of [piccData, encFileData]) {
      if (p === undefined || p.valueStart < start.valueStart || p.valueStart > end) continue;
      const at = p.valueStart - start.valueStart;
      macInput = macInput.slice(0, at) + p.value.toUpperCase() + macInput.slice(at + p.value.length);
    }
  }

  const result: ParsedSunMessage = {
    ok: true,
    piccData: toHex(picc.bytes),
    cmac: toHex(mac.bytes),
    macInput,
  };
  if (enc !== undefined) result.encFileData = toHex(enc);
  return result;
}
