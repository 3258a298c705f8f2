import { invalidArgument } from './errors.ts';
import { enums, type IPayload } from './proto.ts';

const T = enums.IndexedValueType;

const METADATA_NAMES: Record<number, string> = {
  [T.INDEXED_VALUE_TYPE_TEXT]: 'Text',
  [T.INDEXED_VALUE_TYPE_KEYWORD]: 'Keyword',
  [T.INDEXED_VALUE_TYPE_INT]: 'Int',
  [T.INDEXED_VALUE_TYPE_DOUBLE]: 'Double',
  [T.INDEXED_VALUE_TYPE_BOOL]: 'Bool',
  [T.INDEXED_VALUE_TYPE_DATETIME]: 'Datetime',
  [T.INDEXED_VALUE_TYPE_KEYWORD_LIST]: 'KeywordList',
};

export const SYSTEM_SEARCH_ATTRIBUTES: Readonly<Record<string, number>> = {
  BatcherNamespace: T.INDEXED_VALUE_TYPE_KEYWORD,
  BatcherUser: T.INDEXED_VALUE_TYPE_KEYWORD,
  BinaryChecksums: T.INDEXED_VALUE_TYPE_KEYWORD_LIST,
  BuildIds: T.INDEXED_VALUE_TYPE_KEYWORD_LIST,
  CloseTime: T.INDEXED_VALUE_TYPE_DATETIME,
  ExecutionDuration: T.INDEXED_VALUE_TYPE_INT,
  ExecutionStatus: T.INDEXED_VALUE_TYPE_KEYWORD,
  ExecutionTime: T.INDEXED_VALUE_TYPE_DATETIME,
  HistoryLength: T.INDEXED_VALUE_TYPE_INT,
  HistorySizeBytes: T.INDEXED_VALUE_TYPE_INT,
  ParentRunId: T.INDEXED_VALUE_TYPE_KEYWORD,
  ParentWorkflowId: T.INDEXED_VALUE_TYPE_KEYWORD,
  RootRunId: T.INDEXED_VALUE_TYPE_KEYWORD,
  RootWorkflowId: T.INDEXED_VALUE_TYPE_KEYWORD,
  RunId: T.INDEXED_VALUE_TYPE_KEYWORD,
  StartTime: T.INDEXED_VALUE_TYPE_DATETIME,
  StateTransitionCount: T.INDEXED_VALUE_TYPE_INT,
  TaskQueue: T.INDEXED_VALUE_TYPE_KEYWORD,
  TemporalChangeVersion: T.INDEXED_VALUE_TYPE_KEYWORD_LIST,
  TemporalNamespaceDivision: T.INDEXED_VALUE_TYPE_KEYWORD,
  TemporalPauseInfo: T.INDEXED_VALUE_TYPE_KEYWORD_LIST,
  TemporalReportedProblems: T.INDEXED_VALUE_TYPE_KEYWORD_LIST,
  TemporalScheduledById: T.INDEXED_VALUE_TYPE_KEYWORD,
  TemporalScheduledStartTime: T.INDEXED_VALUE_TYPE_DATETIME,
  TemporalSchedulePaused: T.INDEXED_VALUE_TYPE_BOOL,
  TemporalWorkerDeployment: T.INDEXED_VALUE_TYPE_KEYWORD,
  TemporalWorkerDeploymentVersion: T.INDEXED_VALUE_TYPE_KEYWORD,
  TemporalWorkflowVersioningBehavior: T.INDEXED_VALUE_TYPE_KEYWORD,
  WorkflowId: T.INDEXED_VALUE_TYPE_KEYWORD,
  WorkflowType: T.INDEXED_VALUE_TYPE_KEYWORD,
};

/** Custom attributes the official dev server pre-registers in every namespace. */
export const DEFAULT_CUSTOM_SEARCH_ATTRIBUTES: Readonly<Record<string, number>> = {
  CustomKeywordField: T.INDEXED_VALUE_TYPE_KEYWORD,
  CustomStringField: T.INDEXED_VALUE_TYPE_TEXT,
  CustomTextField: T.INDEXED_VALUE_TYPE_TEXT,
  CustomIntField: T.INDEXED_VALUE_TYPE_INT,
  CustomDatetimeField: T.INDEXED_VALUE_TYPE_DATETIME,
  CustomDoubleField: T.INDEXED_VALUE_TYPE_DOUBLE,
  CustomBoolField: T.INDEXED_VALUE_TYPE_BOOL,
};

/** Parses a type as written on the CLI (`--search-attribute Name=Keyword`), case-insensitively. */
export function parseIndexedValueType(name: string): number | undefined {
  const wanted = name.trim().toLowerCase();
  for (const [value, metadataName] of Object.entries(METADATA_NAMES)) {
    if (metadataName.toLowerCase() === wanted) return Number(value);
  }
  const enumName = Object.entries(T).find(([key]) => key.toLowerCase() === `indexed_value_type_${wanted}`);
  return enumName ? Number(enumName[1]) : undefined;
}

export function indexedValueTypeName(type: number): string {
  return Object.entries(T).find(([, value]) => value === type)?.[0] ?? 'INDEXED_VALUE_TYPE_UNSPECIFIED';
}

/** Throws INVALID_ARGUMENT if any attribute is not registered. */
export function validateSearchAttributes(
  fields: Record<string, IPayload> | null | undefined,
  types: ReadonlyMap<string, number>,
): void {
  for (const name of Object.keys(fields ?? {})) {
    if (!types.has(name)) {
      throw invalidArgument(`search attribute ${name} is not defined`);
    }
  }
}

function payloadText(payload: IPayload): string {
  return Buffer.from(payload.data ?? [])
    .toString('utf8')
    .trim();
}

function isBinaryNull(payload: IPayload): boolean {
  const encoding = payload.metadata?.encoding;
  return !!encoding && Buffer.from(encoding).toString('utf8') === 'binary/null';
}

/** Applies a search attribute upsert: a null or empty-list value removes the attribute. */
export function mergeSearchAttributes(
  current: Record<string, IPayload>,
  updates: Record<string, IPayload> | null | undefined,
): Record<string, IPayload> {
  const merged = { ...current };
  for (const [name, payload] of Object.entries(updates ?? {})) {
    const text = payloadText(payload);
    if (isBinaryNull(payload) || text === 'null' || text === '[]' || text === '') delete merged[name];
    else merged[name] = payload;
  }
  return merged;
}

/** Applies a memo upsert: a null value removes the key. */
export function mergeMemo(
  current: Record<string, IPayload>,
  updates: Record<string, IPayload> | null | undefined,
): Record<string, IPayload> {
  const merged = { ...current };
  for (const [name, payload] of Object.entries(updates ?? {})) {
    if (isBinaryNull(payload) || payloadText(payload) === 'null') delete merged[name];
    else merged[name] = payload;
  }
  return merged;
}

/** Copies payloads with their `type` metadata set, as the real server returns them. */
export function withTypeMetadata(
  fields: Record<string, IPayload>,
  types: ReadonlyMap<string, number>,
): Record<string, IPayload> {
  const out: Record<string, IPayload> = {};
  for (const [name, payload] of Object.entries(fields)) {
    const type = types.get(name);
    const typeName = type === undefined ? undefined : METADATA_NAMES[type];
    out[name] = typeName
      ? { ...payload, metadata: { ...payload.metadata, type: Buffer.from(typeName, 'utf8') } }
      : payload;
  }
  return out;
}

/** Decodes a search attribute payload into the value the visibility query compares against. */
export function decodeSearchAttribute(payload: IPayload, type: number | undefined): unknown {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(payload.data ?? []).toString('utf8'));
  } catch {
    return undefined;
  }
  if (type === T.INDEXED_VALUE_TYPE_KEYWORD_LIST) {
    return Array.isArray(value) ? value.map(String) : [String(value)];
  }
  if (Array.isArray(value)) value = value[0];
  if (value == null) return undefined;
  if (type === T.INDEXED_VALUE_TYPE_DATETIME) return new Date(String(value));
  if (type === T.INDEXED_VALUE_TYPE_INT || type === T.INDEXED_VALUE_TYPE_DOUBLE) return Number(value);
  if (type === T.INDEXED_VALUE_TYPE_BOOL) return value === true || value === 'true';
  return value;
}
