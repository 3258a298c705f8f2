/**
 * EN 18222 element paths: RFC 9535 Normalized Paths (`$['section']['events'][0]['action']`), the one form
 * that names exactly one node of a JSON document. Parsed strictly (no wildcards, slices, filters, negative
 * indexes or dot notation) so a path is never ambiguous.
 */

export type PathSegment = { name: string } | { index: number };

export class ElementPathError extends Error {}

const MAX_PATH_LENGTH = 4000;
const MAX_SEGMENTS = 64;
const SHORT_ESCAPES: Record<string, string> = {
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
  "'": "'",
  '\\': '\\',
  '/': '/',
};

/** The segments of a normalized path; throws ElementPathError (with what is wrong) for anything else. */
export function parseElementPath(path: string): PathSegment[] {
  if (path.length > MAX_PATH_LENGTH) throw new ElementPathError(`longer than ${MAX_PATH_LENGTH} characters`);
  if (!path.startsWith('$')) throw new ElementPathError('a normalized path starts with $');
  const segments: PathSegment[] = [];
  let i = 1;
  while (i < path.length) {
    if (segments.length >= MAX_SEGMENTS) throw new ElementPathError(`more than ${MAX_SEGMENTS} segments`);
    if (path[i] !== '[') throw new ElementPathError(`expected [ at position ${i}`);
    i++;
    if (path[i] === "'") {
      i++;
      let name = '';
      for (;;) {
        const char = path[i];
        if (char === undefined) throw new ElementPathError('unterminated name');
        if (char === "'") break;
        if (char === '\\') {
          const escaped = path[i + 1];
          if (escaped === 'u') {
            const hex = path.slice(i + 2, i + 6);
            if (!/^[0-9a-fA-F]{4}$/.test(hex)) throw new ElementPathError(`bad \\u escape at position ${i}`);
            name += String.fromCharCode(Number.parseInt(hex, 16));
            i += 6;
            continue;
          }
          const short = escaped === undefined ? undefined : SHORT_ESCAPES[escaped];
          if (short === undefined) throw new ElementPathError(`bad escape at position ${i}`);
          name += short;
          i += 2;
          continue;
        }
        if (char < ' ') throw new ElementPathError(`unescaped control character at position ${i}`);
        name += char;
        i++;
      }
      i++; // closing quote
      segments.push({ name });
    } else {
      const match = /^(0|[1-9]\d{0,8})/.exec(path.slice(i));
      if (!match) throw new ElementPathError(`expected a quoted name or an index at position ${i}`);
      segments.push({ index: Number(match[1]) });
      i += match[1]!.length;
    }
    if (path[i] !== ']') throw new ElementPathError(`expected ] at position ${i}`);
    i++;
  }
  return segments;
}

/** The node the segments name in `document`, or undefined when there is none. */
export function selectElement(
  document: unknown,
  segments: readonly PathSegment[],
): { value: unknown } | undefined {
  let node: unknown = document;
  for (const segment of segments) {
    if ('index' in segment) {
      if (!Array.isArray(node) || segment.index >= node.length) return undefined;
      node = node[segment.index];
    } else {
      if (node === null || typeof node !== 'object' || Array.isArray(node)) return undefined;
      if (!Object.hasOwn(node, segment.name)) return undefined;
      node = (node as Record<string, unknown>)[segment.name];
    }
  }
  return { value: node };
}
