import { normalizeGtin } from './gtin.ts';
import { isAi82Value } from './qualifiers.ts';

/**
 * The key qualifiers GS1 Digital Link URI Syntax 1.4 allows after a GTIN (AI 01), in the only order the path
 * may give them (each may be left out): consumer product variant (22), batch/lot (10), serial (21). Their
 * values are GS1 character set 82, at most 20 characters.
 */
export const GTIN_QUALIFIERS = ['22', '10', '21'] as const;
export type GtinQualifier = (typeof GTIN_QUALIFIERS)[number];

const QUALIFIER_NAMES: Record<GtinQualifier, string> = {
  '22': 'consumer product variant (AI 22)',
  '10': 'batch/lot (AI 10)',
  '21': 'serial (AI 21)',
};

/** A well-formed GS1 Digital Link path under AI 01: the GTIN as 14 digits and the qualifiers it carries. */
export interface GtinKey {
  gtin: string;
  /** The GTIN as the path wrote it (8, 12, 13 or 14 digits). */
  gtinAsWritten: string;
  cpv?: string;
  lot?: string;
  serial?: string;
}

/** What is wrong with a Digital Link path: the segment at fault (as written) and why. */
export interface DigitalLinkSyntaxError {
  segment: string;
  detail: string;
}

export type ParsedGtinPath = { ok: true; key: GtinKey } | { ok: false; error: DigitalLinkSyntaxError };

const fail = (segment: string, detail: string): ParsedGtinPath => ({ ok: false, error: { segment, detail } });

function decoded(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

/**
 * Parses the path of a GS1 Digital Link whose primary key is a GTIN: `/01/{gtin}` then AI/value pairs of the
 * qualifiers 22, 10 and 21 in that order (`segments` as in the URL, percent-encoded, starting with "01"). One
 * trailing slash is tolerated (GS1 resolvers SHOULD). Everything else is a syntax error naming its segment.
 */
export function parseGtinPath(path: string): ParsedGtinPath {
  const segments = path.replace(/^\//, '').replace(/\/$/, '').split('/');
  if (segments[0] !== '01') return fail(segments[0] ?? '', 'a GS1 Digital Link path here starts with /01/');
  const written = segments[1];
  if (written === undefined || written === '') return fail('01', 'AI 01 (GTIN) has no value');
  const gtin = normalizeGtin(written);
  if (!gtin) {
    return fail(written, 'a GTIN must be 8, 12, 13 or 14 digits with a valid GS1 check digit');
  }
  const key: GtinKey = { gtin, gtinAsWritten: written };
  let last = -1;
  for (let i = 2; i < segments.length; i += 2) {
    const ai = segments[i]!;
    const raw = segments[i + 1];
    const position = (GTIN_QUALIFIERS as readonly string[]).indexOf(ai);
    if (position < 0) {
      return fail(
        ai,
        /^\d{2,4}$/.test(ai)
          ? `AI ${ai} is not a key qualifier of a GTIN (AI 01 allows 22, 10 and 21, in that order)`
          : `"${ai.slice(0, 40)}" is not a GS1 Application Identifier (AI 01 allows 22, 10 and 21, in that order)`,
      );
    }
    const qualifier = ai as GtinQualifier;
    if (position <= last) {
      const after = GTIN_QUALIFIERS[last]!;
      return fail(
        ai,
        position === last
          ? `AI ${ai} appears twice`
          : `AI ${ai} must come before AI ${after} (the order is 22, 10, 21)`,
      );
    }
    last = position;
    if (raw === undefined || raw === '') return fail(ai, `${QUALIFIER_NAMES[qualifier]} has no value`);
    const value = decoded(raw);
    if (value === undefined || !isAi82Value(value)) {
      return fail(
        raw,
        `${QUALIFIER_NAMES[qualifier]} must be 1 to 20 characters of GS1 character set 82 (percent-encoded in the URL)`,
      );
    }
    if (qualifier === '22') key.cpv = value;
    else if (qualifier === '10') key.lot = value;
    else key.serial = value;
  }
  return { ok: true, key };
}

/** The canonical path of a key: 14-digit GTIN, qualifiers in order, values percent-encoded. */
export function gtinKeyPath(key: Omit<GtinKey, 'gtinAsWritten'>): string {
  let path = `/01/${key.gtin}`;
  if (key.cpv !== undefined) path += `/22/${encodeURIComponent(key.cpv)}`;
  if (key.lot !== undefined) path += `/10/${encodeURIComponent(key.lot)}`;
  if (key.serial !== undefined) path += `/21/${encodeURIComponent(key.serial)}`;
  return path;
}
