// The GS1-Conformant Resolver 1.2.0 linkset schema (test/fixtures/gs1-linkset-1.2.0.schema.json, written from the
// standard's published facts) checked with ajv (JSON Schema 2020-12, strict mode).
import { readFileSync } from 'node:fs';
import { Ajv2020, type ErrorObject } from 'ajv/dist/2020.js';

export const GS1_LINKSET_SCHEMA = JSON.parse(
  readFileSync(new URL('../../fixtures/gs1-linkset-1.2.0.schema.json', import.meta.url), 'utf8'),
);

const validate = new Ajv2020({ allErrors: true, strict: true }).compile(GS1_LINKSET_SCHEMA);

/** The schema's verdict on a linkset document: valid, or the errors ajv reports. */
export function checkGs1Linkset(document: unknown): { valid: boolean; errors: ErrorObject[] } {
  const valid = validate(document) as boolean;
  return { valid, errors: valid ? [] : [...(validate.errors ?? [])] };
}
