// Canonical JSON for metadata stored on IPFS, so the same metadata always yields the same bytes and CID,
// and the `ipfs://<cid>` URLs that point at it.
import { normalizeCid } from './cid.ts';

export const JSON_CONTENT_TYPE = 'application/json';

/**
 * Serialises `value` in the canonical form of RFC 8785 (JCS): object keys sorted by UTF-16 code units at every
 * depth, no insignificant whitespace, numbers and strings as ECMAScript `JSON.stringify` writes them.
 * Properties whose value is `undefined` are dropped (as `JSON.stringify` does); `toJSON` is honoured (dates).
 * Throws a TypeError for what JSON cannot express faithfully: non-finite numbers, bigints, functions, symbols,
 * `undefined` inside arrays, and cycles.
 */
export function canonicalJson(value: unknown): string {
  return serialize(value, '$', new Set());
}

/** UTF-8 bytes of {@link canonicalJson}: what to store on IPFS for metadata. */
export function canonicalJsonBytes(value: unknown): Buffer {
  return Buffer.from(canonicalJson(value), 'utf8');
}

function serialize(value: unknown, path: string, ancestors: Set<object>): string {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'boolean':
      return value ? 'true' : 'false';
    case 'string':
      return JSON.stringify(value);
    case 'number':
      if (!Number.isFinite(value)) throw new TypeError(`${path}: ${value} has no JSON form`);
      return JSON.stringify(value);
    case 'object':
      return serializeObject(value, path, ancestors);
    default:
      throw new TypeError(`${path}: a ${typeof value} has no JSON form`);
  }
}

function serializeObject(value: object, path: string, ancestors: Set<object>): string {
  if (hasToJson(value)) return serialize(value.toJSON(), path, ancestors);
  if (ancestors.has(value)) throw new TypeError(`${path}: circular reference`);
  ancestors.add(value);
  try {
    if (Array.isArray(value)) {
      const items = value.map((item: unknown, index) => {
        if (item === undefined) throw new TypeError(`${path}[${index}]: undefined has no JSON form`);
        return serialize(item, `${path}[${index}]`, ancestors);
      });
      return `[${items.join(',')}]`;
    }
    const members: string[] = [];
    const record = value as Record<string, unknown>;
    // Default sort compares UTF-16 code units, which is the order JCS prescribes.
    for (const key of Object.keys(record).sort()) {
      const member = record[key];
      if (member === undefined) continue;
      members.push(`${JSON.stringify(key)}:${serialize(member, `${path}.${key}`, ancestors)}`);
    }
    return `{${members.join(',')}}`;
  } finally {
    ancestors.delete(value);
  }
}

function hasToJson(value: object): value is { toJSON(): unknown } {
  return 'toJSON' in value && typeof value.toJSON === 'function';
}

/** `ipfs://<cid>` for a CID string. */
export function ipfsUrl(cid: string): string {
  return `ipfs://${cid}`;
}

/**
 * The CID named by an `ipfs://<cid>` URL, normalised to CIDv1 base32 (so `ipfs://Qm…` and `ipfs://bafy…` for
 * the same root agree). `undefined` when `url` is not exactly `ipfs://` followed by a valid CID (paths, queries
 * and gateway `https://…/ipfs/…` URLs are not accepted).
 */
export function parseIpfsUrl(url: string): string | undefined {
  const match = /^ipfs:\/\/([^/?#\s]+)\/?$/.exec(url);
  return match?.[1] ? normalizeCid(match[1]) : undefined;
}
