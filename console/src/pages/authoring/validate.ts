import { isRfc3339DateTime, isRfc3339FullDate } from '../../../../src/standards/time/rfc3339.ts';
import { child, isObject } from './pointer.ts';

/**
 * The browser's check of a form against the served JSON Schema, with the API's pointers and messages (those of
 * its Ajv validator and 400 content_invalid: a missing member is named at itself, "is required"), so a field
 * the API would refuse is named before anything is sent. The console's CSP allows no eval, so Ajv's compiled
 * validators cannot run here: this walks the keywords the content specifications use (type, properties,
 * required, additionalProperties, enum, bounds, lengths, pattern, date formats, items). The API stays the
 * authority: when it refuses, its errors are shown by the same pointers. `partial`: a model or batch passport,
 * whose required fields its items complete.
 */

type Schema = Record<string, unknown>;
type Errors = Map<string, string>;

const FORMATS: Record<string, (value: string) => boolean> = {
  date: isRfc3339FullDate,
  'date-time': isRfc3339DateTime,
};

function typeError(schema: Schema, value: unknown): string | undefined {
  switch (schema.type) {
    case 'object':
      return isObject(value) ? undefined : 'must be object';
    case 'array':
      return Array.isArray(value) ? undefined : 'must be array';
    case 'string':
      return typeof value === 'string' ? undefined : 'must be string';
    case 'integer':
      return Number.isInteger(value) ? undefined : 'must be integer';
    case 'number':
      return typeof value === 'number' && Number.isFinite(value) ? undefined : 'must be number';
    default:
      return undefined;
  }
}

function check(schema: Schema, value: unknown, pointer: string, errors: Errors, partial: boolean): void {
  const report = (at: string, message: string) => {
    if (!errors.has(at || '/')) errors.set(at || '/', message);
  };
  const wrongType = typeError(schema, value);
  if (wrongType) {
    report(pointer, wrongType);
    return;
  }
  if (Array.isArray(schema.enum) && !schema.enum.includes(value)) {
    report(pointer, 'must be equal to one of the allowed values');
    return;
  }
  if (typeof value === 'number') {
    if (typeof schema.minimum === 'number' && value < schema.minimum)
      report(pointer, `must be >= ${schema.minimum}`);
    if (typeof schema.maximum === 'number' && value > schema.maximum)
      report(pointer, `must be <= ${schema.maximum}`);
    if (typeof schema.exclusiveMinimum === 'number' && value <= schema.exclusiveMinimum) {
      report(pointer, `must be > ${schema.exclusiveMinimum}`);
    }
  }
  if (typeof value === 'string') {
    const length = [...value].length;
    if (typeof schema.minLength === 'number' && length < schema.minLength) {
      report(pointer, `must NOT have fewer than ${schema.minLength} characters`);
    }
    if (typeof schema.maxLength === 'number' && length > schema.maxLength) {
      report(pointer, `must NOT have more than ${schema.maxLength} characters`);
    }
    if (typeof schema.pattern === 'string' && !new RegExp(schema.pattern, 'u').test(value)) {
      report(pointer, `must match pattern "${schema.pattern}"`);
    }
    const format = typeof schema.format === 'string' ? FORMATS[schema.format] : undefined;
    if (format && !format(value)) report(pointer, `must match format "${String(schema.format)}"`);
  }
  if (Array.isArray(value)) {
    if (typeof schema.minItems === 'number' && value.length < schema.minItems) {
      report(pointer, `must NOT have fewer than ${schema.minItems} items`);
    }
    if (typeof schema.maxItems === 'number' && value.length > schema.maxItems) {
      report(pointer, `must NOT have more than ${schema.maxItems} items`);
    }
    if (isObject(schema.items)) {
      value.forEach((item, index) => {
        check(schema.items as Schema, item, child(pointer, index), errors, partial);
      });
    }
  }
  if (isObject(value)) {
    const properties = (schema.properties ?? {}) as Record<string, Schema>;
    if (!partial) {
      for (const name of (schema.required as string[] | undefined) ?? []) {
        if (value[name] === undefined) report(child(pointer, name), 'is required');
      }
    }
    for (const [name, member] of Object.entries(value)) {
      if (properties[name]) check(properties[name], member, child(pointer, name), errors, partial);
      else if (schema.additionalProperties === false) {
        report(child(pointer, name), 'is not a field of this content specification');
      }
    }
  }
}

/** Every offending field of `data` against `schema`, by RFC 6901 pointer (empty: the API would take it). */
export function validate(schema: Schema, data: unknown, partial: boolean): Errors {
  const errors: Errors = new Map();
  check(schema, data, '', errors, partial);
  return errors;
}
