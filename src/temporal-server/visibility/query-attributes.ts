import type { VisibilityRecord } from './query.ts';
import { VisibilityQueryError } from './query-error.ts';
import type { AttrRef, Literal } from './query-parser.ts';

/** Value kinds an attribute can have. `status` is the ExecutionStatus system attribute (an enum keyword). */
export type Kind = 'keyword' | 'status' | 'text' | 'int' | 'double' | 'bool' | 'datetime' | 'keywordList';

/**
 * Normalised comparable value: strings for keyword-ish kinds, numbers for Int/Double, booleans for Bool and
 * nanoseconds since the Unix epoch (bigint) for Datetime, so that RFC 3339 fractions below 1 ms are honoured.
 */
export type Scalar = string | number | boolean | bigint;

export interface ResolvedAttribute {
  name: string;
  kind: Kind;
  /**
   * The record's value(s) normalised to the attribute kind, or `null` when the attribute is absent
   * (undefined, null or an empty list). Elements of the wrong runtime type are dropped.
   */
  read(rec: VisibilityRecord): Scalar[] | null;
}

export type AttributeResolver = (ref: AttrRef) => ResolvedAttribute;

export const KIND_LABEL: Readonly<Record<Kind, string>> = {
  keyword: 'Keyword',
  status: 'ExecutionStatus',
  text: 'Text',
  int: 'Int',
  double: 'Double',
  bool: 'Bool',
  datetime: 'Datetime',
  keywordList: 'KeywordList',
};

const SYSTEM_ATTRIBUTES: ReadonlyMap<string, { kind: Kind; get: (rec: VisibilityRecord) => unknown }> =
  new Map<string, { kind: Kind; get: (rec: VisibilityRecord) => unknown }>([
    ['WorkflowId', { kind: 'keyword', get: (r) => r.workflowId }],
    ['RunId', { kind: 'keyword', get: (r) => r.runId }],
    ['WorkflowType', { kind: 'keyword', get: (r) => r.workflowType }],
    ['TaskQueue', { kind: 'keyword', get: (r) => r.taskQueue }],
    ['ExecutionStatus', { kind: 'status', get: (r) => r.status }],
    ['StartTime', { kind: 'datetime', get: (r) => r.startTime }],
    ['CloseTime', { kind: 'datetime', get: (r) => r.closeTime }],
    ['ExecutionTime', { kind: 'datetime', get: (r) => r.executionTime }],
  ]);

/** Accepts `INDEXED_VALUE_TYPE_KEYWORD_LIST`, `KeywordList`, `KEYWORD_LIST`, ... */
const TYPE_NAMES: Readonly<Record<string, Kind>> = {
  keyword: 'keyword',
  text: 'text',
  int: 'int',
  double: 'double',
  bool: 'bool',
  datetime: 'datetime',
  keywordlist: 'keywordList',
};

function kindOfIndexedValueType(type: string): Kind | undefined {
  const key = type
    .replace(/^INDEXED_VALUE_TYPE_/i, '')
    .replace(/_/g, '')
    .toLowerCase();
  return Object.hasOwn(TYPE_NAMES, key) ? TYPE_NAMES[key] : undefined;
}

export function createResolver(attributeTypes: ReadonlyMap<string, string>): AttributeResolver {
  return (ref) => {
    const system = SYSTEM_ATTRIBUTES.get(ref.name);
    if (system) {
      const { kind, get } = system;
      return { name: ref.name, kind, read: (rec) => normalizeRecordValue(kind, get(rec)) };
    }
    const type = attributeTypes.get(ref.name);
    if (type === undefined) {
      const all = [...SYSTEM_ATTRIBUTES.keys(), ...attributeTypes.keys()];
      const similar = all.find((n) => n.toLowerCase() === ref.name.toLowerCase());
      const hint = similar ? ` (attribute names are case sensitive; did you mean '${similar}'?)` : '';
      throw new VisibilityQueryError(`unknown search attribute '${ref.name}' at position ${ref.pos}${hint}`);
    }
    const kind = kindOfIndexedValueType(type);
    if (!kind)
      throw new VisibilityQueryError(`search attribute '${ref.name}' has unsupported type '${type}'`);
    const name = ref.name;
    return {
      name,
      kind,
      read: (rec) =>
        normalizeRecordValue(
          kind,
          Object.hasOwn(rec.searchAttributes, name) ? rec.searchAttributes[name] : undefined,
        ),
    };
  };
}

function normalizeRecordValue(kind: Kind, raw: unknown): Scalar[] | null {
  if (raw === undefined || raw === null) return null;
  const items: readonly unknown[] = Array.isArray(raw) ? raw : [raw];
  if (items.length === 0) return null;
  const out: Scalar[] = [];
  for (const item of items) {
    const value = normalizeRecordElement(kind, item);
    if (value !== undefined) out.push(value);
  }
  return out;
}

function normalizeRecordElement(kind: Kind, item: unknown): Scalar | undefined {
  switch (kind) {
    case 'keyword':
    case 'status':
    case 'text':
    case 'keywordList':
      return typeof item === 'string' ? item : undefined;
    case 'int':
    case 'double':
      if (typeof item === 'number') return Number.isFinite(item) ? item : undefined;
      return typeof item === 'bigint' ? Number(item) : undefined;
    case 'bool':
      return typeof item === 'boolean' ? item : undefined;
    case 'datetime':
      if (item instanceof Date) {
        const ms = item.getTime();
        return Number.isNaN(ms) ? undefined : BigInt(ms) * 1_000_000n;
      }
      if (typeof item === 'string') {
        const parsed = parseRfc3339(item);
        if (parsed !== undefined) return parsed;
        const ms = Date.parse(item);
        return Number.isNaN(ms) ? undefined : BigInt(ms) * 1_000_000n;
      }
      return undefined;
  }
}

function literalText(lit: Literal): string {
  return lit.kind === 'string' ? `'${lit.value}'` : lit.kind === 'number' ? lit.raw : String(lit.value);
}

/** Converts a query literal to the attribute's normalised value, or throws when it has the wrong type. */
export function literalValue(attr: ResolvedAttribute, lit: Literal): Scalar {
  const wrongType = (expected: string): never => {
    throw new VisibilityQueryError(
      `invalid value ${literalText(lit)} at position ${lit.pos} for ${KIND_LABEL[attr.kind]} search attribute ` +
        `'${attr.name}': expected ${expected}`,
    );
  };
  switch (attr.kind) {
    case 'keyword':
    case 'text':
    case 'keywordList':
      return lit.kind === 'string' ? lit.value : wrongType('a quoted string');
    case 'status': {
      const status = lit.kind === 'bool' ? undefined : parseExecutionStatus(lit.value);
      return status ?? wrongType(`one of ${STATUS_NAMES.map((s) => `'${s}'`).join(', ')}`);
    }
    case 'int':
      return lit.kind === 'number' && Number.isInteger(lit.value) ? lit.value : wrongType('an integer');
    case 'double':
      return lit.kind === 'number' && Number.isFinite(lit.value) ? lit.value : wrongType('a number');
    case 'bool':
      return lit.kind === 'bool' ? lit.value : wrongType('true or false');
    case 'datetime': {
      const ns = lit.kind === 'string' ? parseRfc3339(lit.value) : undefined;
      return ns ?? wrongType("an RFC 3339 timestamp string such as '2024-01-02T15:04:05Z'");
    }
  }
}

/** Workflow execution statuses, in enum order (WORKFLOW_EXECUTION_STATUS_RUNNING = 1, ...). */
const STATUS_NAMES = [
  'Running',
  'Completed',
  'Failed',
  'Canceled',
  'Terminated',
  'ContinuedAsNew',
  'TimedOut',
];

const STATUS_BY_KEY: ReadonlyMap<string, string> = new Map(
  STATUS_NAMES.flatMap((name) => {
    const snake = name.replace(/([a-z])([A-Z])/g, '$1_$2').toLowerCase();
    return [
      [name.toLowerCase(), name],
      [`workflow_execution_status_${snake}`, name],
    ];
  }),
);

/**
 * Accepts the status name in any case ('Running', 'running'), the proto enum name
 * ('WORKFLOW_EXECUTION_STATUS_RUNNING') or the enum number (1..7).
 */
function parseExecutionStatus(value: string | number): string | undefined {
  if (typeof value === 'number') return Number.isInteger(value) ? STATUS_NAMES[value - 1] : undefined;
  return STATUS_BY_KEY.get(value.toLowerCase());
}

const RFC3339 =
  /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(?:([Zz])|([+-])(\d{2}):(\d{2}))$/;

/** Parses an RFC 3339 timestamp into nanoseconds since the Unix epoch; undefined when invalid. */
export function parseRfc3339(text: string): bigint | undefined {
  const m = RFC3339.exec(text);
  if (!m) return undefined;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const offsetHours = Number(m[10] ?? 0);
  const offsetMinutes = Number(m[11] ?? 0);
  if (hour > 23 || minute > 59 || second > 59 || offsetHours > 23 || offsetMinutes > 59) return undefined;
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) {
    return undefined; // e.g. 2023-02-30 or month 13
  }
  date.setUTCHours(hour, minute, second, 0);
  const offsetMs = (m[9] === '-' ? -1 : 1) * (offsetHours * 60 + offsetMinutes) * 60_000;
  const fractionNs = BigInt((m[7] ?? '').padEnd(9, '0'));
  return BigInt(date.getTime() - offsetMs) * 1_000_000n + fractionNs;
}

/**
 * Approximation of Elasticsearch's standard analyzer used for Text attributes: lower-cased runs of
 * letters, digits and underscores.
 */
export function textTokens(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^\p{L}\p{N}_]+/u)
    .filter((t) => t !== '');
}
