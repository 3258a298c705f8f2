import pg from 'pg';

/**
 * Type parsers that leave JSON and timestamps as PostgreSQL wrote them: a row read with them is its own
 * content key (its values joined), so a row unchanged since the last read of its passport is recognised
 * without parsing it. Everything else is parsed as the pool parses it (timestamps stay text there too).
 */
export const RAW_JSON_TYPES = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    RAW.has(oid)
      ? (value: string) => value
      : pg.types.getTypeParser(oid, format ?? 'text')) as typeof pg.types.getTypeParser,
};

// json, jsonb, date, timestamp, timestamptz, interval
const RAW = new Set([114, 3802, 1082, 1114, 1184, 1186]);

/** The values of a row as one text; rows with the same text have the same values. */
export function contentKey(row: object): string {
  let key = '';
  for (const value of Object.values(row)) key += value === null ? '\u0001\u0000' : `${String(value)}\u0000`;
  return key;
}

/**
 * What was made of each passport's row the last time it was read, kept while the row reads the same: a
 * memo of a pure function of the row, so it is never stale (a changed row is a new key), whatever wrote it
 * and in whichever process. At most `limit` passports, the least recently read dropped first.
 */
export class FactsByContent<T> {
  readonly #entries = new Map<string, { key: string; value: T }>();
  readonly #limit: number;

  constructor(limit: number) {
    this.#limit = limit;
  }

  of(id: string, row: object, make: () => T): T {
    const key = contentKey(row);
    const known = this.#entries.get(id);
    this.#entries.delete(id);
    const value = known?.key === key ? known.value : make();
    this.#entries.set(id, { key, value });
    if (this.#entries.size > this.#limit) this.#entries.delete(this.#entries.keys().next().value!);
    return value;
  }
}
