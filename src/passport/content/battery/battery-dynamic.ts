import type { ValidateFunction } from 'ajv/dist/2020.js';
import { newContentAjv } from '../content-ajv.ts';
import { type ContentViolation, violation } from '../content-specification.ts';
import type { JsonSchema } from '../disclosure.ts';

/**
 * The battery's dynamic data (issue 25 item 3, docs/battery-passport.md "Dynamic data"): what operators and
 * repairers append during the battery's life, written through `POST …/content/{specId}/dynamic`:
 * - `batteryStatus` → `/generalProductInformation/batteryStatus` (original, repurposed, reused, remanufactured,
 *   waste; `waste` is final and nothing goes back to `original`);
 * - `batteryCondition` → `/performanceAndDurability/batteryCondition`: the measured values, merged over the
 *   previous ones (`measuredAt` required: the values are of that measurement);
 * - `negativeEvents`, `accidentReports` → appended to the lists of the same names in `batteryCondition`.
 * The update's schema is derived from the pinned specification's own, so a field is valid here exactly when the
 * model takes it; the merged data is validated against the whole model again before it is stored.
 */
export interface BatteryDynamicUpdate {
  batteryStatus?: string;
  batteryCondition?: Record<string, unknown>;
  negativeEvents?: Record<string, unknown>[];
  accidentReports?: string[];
}

const CONDITION = '/performanceAndDurability/batteryCondition';
const STATUS = '/generalProductInformation/batteryStatus';
/** The lists of `batteryCondition` that only grow (appended to, never rewritten, by the dynamic operation). */
export const APPENDED = ['negativeEvents', 'accidentReports'] as const;

/** The members of the update as the model names them (where each lands in the data). */
export const DYNAMIC_FIELDS: Readonly<Record<string, string>> = {
  batteryStatus: STATUS,
  batteryCondition: CONDITION,
  negativeEvents: `${CONDITION}/negativeEvents`,
  accidentReports: `${CONDITION}/accidentReports`,
};

/** The JSON Schema of an update against a battery specification's schema (undefined: no dynamic part). */
export function dynamicUpdateSchema(schema: JsonSchema): JsonSchema | undefined {
  const general = schema.properties?.generalProductInformation?.properties;
  const condition = schema.properties?.performanceAndDurability?.properties?.batteryCondition;
  const status = general?.batteryStatus;
  if (!status || !condition?.properties) return undefined;
  const measured = Object.fromEntries(
    Object.entries(condition.properties).filter(([name]) => !(APPENDED as readonly string[]).includes(name)),
  );
  const properties: Record<string, JsonSchema> = {
    batteryStatus: status,
    batteryCondition: {
      type: 'object',
      description: 'Measured values, merged over the previous ones.',
      properties: measured,
      required: ['measuredAt'],
      additionalProperties: false,
    },
  };
  for (const name of APPENDED) {
    const list = condition.properties[name];
    if (list) properties[name] = { ...list, minItems: 1 };
  }
  return {
    type: 'object',
    properties,
    additionalProperties: false,
  };
}

const ajv = newContentAjv();
const compiled = new WeakMap<JsonSchema, ValidateFunction>();

/** Every offending member of the update body (RFC 6901 pointers into the body); empty: valid. */
export function validateDynamicUpdate(schema: JsonSchema, body: unknown): ContentViolation[] {
  let validate = compiled.get(schema);
  if (!validate) {
    validate = ajv.compile(schema);
    compiled.set(schema, validate);
  }
  const violations = validate(body) ? [] : (validate.errors ?? []).map(violation);
  if (
    violations.length === 0 &&
    typeof body === 'object' &&
    body !== null &&
    Object.keys(body as object).length === 0
  ) {
    violations.push({
      pointer: '/',
      message: `names nothing to change (${Object.keys(DYNAMIC_FIELDS).join(', ')})`,
      keyword: 'minProperties',
    });
  }
  return violations;
}

/**
 * The data after the update, and the data pointers it changed. `data` is the stored data (valid against the
 * pinned model); it is not modified.
 */
export function applyDynamicUpdate(
  data: Record<string, unknown>,
  update: BatteryDynamicUpdate,
): { data: Record<string, unknown>; changed: string[] } {
  const next = structuredClone(data);
  const changed: string[] = [];
  if (update.batteryStatus !== undefined) {
    const general = child(next, 'generalProductInformation');
    if (general.batteryStatus !== update.batteryStatus) changed.push(STATUS);
    general.batteryStatus = update.batteryStatus;
  }
  const touchesCondition =
    update.batteryCondition !== undefined || APPENDED.some((name) => update[name] !== undefined);
  if (touchesCondition) {
    const condition = child(child(next, 'performanceAndDurability'), 'batteryCondition');
    for (const [name, value] of Object.entries(update.batteryCondition ?? {})) {
      if (JSON.stringify(condition[name]) !== JSON.stringify(value)) changed.push(`${CONDITION}/${name}`);
      condition[name] = value;
    }
    for (const name of APPENDED) {
      const added = update[name];
      if (!added) continue;
      const list = Array.isArray(condition[name]) ? (condition[name] as unknown[]) : [];
      condition[name] = [...list, ...added];
      changed.push(`${CONDITION}/${name}`);
    }
  }
  return { data: next, changed };
}

/** The object member `name` of `parent`, created empty when absent. */
function child(parent: Record<string, unknown>, name: string): Record<string, unknown> {
  const existing = parent[name];
  if (typeof existing === 'object' && existing !== null && !Array.isArray(existing)) {
    return existing as Record<string, unknown>;
  }
  const created: Record<string, unknown> = {};
  parent[name] = created;
  return created;
}

/**
 * A violation of the merged data (pointer into the data) as a pointer into the update body, so the caller sees
 * the member it sent: `/performanceAndDurability/batteryCondition/x` → `/batteryCondition/x`, an appended
 * list's item `…/negativeEvents/{n}` → `/negativeEvents/{n − items before}`.
 */
export function bodyPointer(pointer: string, before: { negativeEvents: number; accidentReports: number }) {
  if (pointer === STATUS) return '/batteryStatus';
  if (!pointer.startsWith(CONDITION)) return pointer;
  const rest = pointer.slice(CONDITION.length);
  for (const name of APPENDED) {
    const prefix = `/${name}`;
    if (rest === prefix) return prefix;
    if (rest.startsWith(`${prefix}/`)) {
      const [index, ...tail] = rest.slice(prefix.length + 1).split('/');
      const shifted = Number(index) - before[name];
      return [`${prefix}/${Number.isInteger(shifted) && shifted >= 0 ? shifted : index}`, ...tail].join('/');
    }
  }
  return `/batteryCondition${rest}`;
}
