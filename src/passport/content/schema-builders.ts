import type { JsonSchema } from './disclosure.ts';

/** Small builders the content specifications' JSON Schemas are written with (closed objects, bounded text). */
export const text = (description: string, maxLength = 500): JsonSchema => ({
  type: 'string',
  minLength: 1,
  maxLength,
  description,
});
export const uri = (description: string): JsonSchema => ({
  type: 'string',
  pattern: '^(https?|urn|did):[^\\s]+$',
  maxLength: 2000,
  description,
});
/** A real calendar day (RFC 3339 full-date); the service's validators assert the format (standards/time/rfc3339). */
export const isoDate = (description: string): JsonSchema => ({ type: 'string', format: 'date', description });
/** A real instant with offset (RFC 3339 date-time), asserted like isoDate. */
export const isoDateTime = (description: string): JsonSchema => ({
  type: 'string',
  format: 'date-time',
  description,
});
export const number = (
  description: string,
  bounds: { minimum?: number; maximum?: number } = {},
): JsonSchema => ({
  type: 'number',
  ...bounds,
  description,
});
export const positive = (description: string): JsonSchema => ({
  type: 'number',
  exclusiveMinimum: 0,
  description,
});
export const percent = (description: string): JsonSchema => number(description, { minimum: 0, maximum: 100 });
export const wholePercent = (description: string): JsonSchema => ({
  type: 'integer',
  minimum: 0,
  maximum: 100,
  description,
});
export const count = (description: string): JsonSchema => ({ type: 'integer', minimum: 0, description });
export const oneOf = (description: string, values: readonly string[]): JsonSchema => ({
  type: 'string',
  enum: values,
  description,
});
export const list = (items: JsonSchema, description: string, minItems = 0): JsonSchema => ({
  type: 'array',
  items,
  minItems,
  maxItems: 200,
  description,
});

/** A closed object: `required` lists the mandatory members, every other member is optional. */
export function object(
  description: string,
  properties: Record<string, JsonSchema>,
  required: readonly string[] = Object.keys(properties),
): JsonSchema {
  return { type: 'object', description, properties, required: [...required], additionalProperties: false };
}
