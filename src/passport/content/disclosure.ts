/**
 * Who may read a field of a product group's data model (issue 25). Only the data of the policy lives here: the
 * server does not yet filter representations by it (that is the disclosure-enforcement step). Roles:
 * - `public`: anyone, without a credential;
 * - `customer`: the product's owner (the purchaser, or someone acting on their behalf);
 * - `repairer`: repairers, remanufacturers, second-life operators (EU 2023/1542 Art. 77(2)(a));
 * - `recycler`: recyclers and waste management operators;
 * - `authority`: market surveillance authorities and the European Commission;
 * - `notifiedBody`: conformity assessment bodies notified under the regulation.
 */
export const ROLES = ['public', 'customer', 'repairer', 'recycler', 'authority', 'notifiedBody'] as const;
export type Role = (typeof ROLES)[number];

/**
 * A field's policy: the roles that read it. `tier` names the rule the roles come from (for the battery pack,
 * an Annex XIII access tier), so a reviewer can check the table against its source.
 */
export interface FieldPolicy {
  tier: string;
  roles: readonly Role[];
}

/** Policy table of a model: field pattern (JSON pointer, `*` for any array item) → policy. */
export type DisclosurePolicy = Readonly<Record<string, FieldPolicy>>;

/**
 * The field patterns of a JSON Schema: one per leaf (a property that is not an object; an array of objects
 * contributes its items' fields under `*`, an array of scalars is one leaf). What a policy must cover.
 */
export function schemaFields(schema: JsonSchema, prefix = ''): string[] {
  if (schema.type === 'object' && schema.properties) {
    return Object.entries(schema.properties).flatMap(([name, child]) =>
      schemaFields(child, `${prefix}/${escapePointer(name)}`),
    );
  }
  if (schema.type === 'array' && schema.items?.type === 'object') {
    return schemaFields(schema.items, `${prefix}/*`);
  }
  return [prefix];
}

/** The policy pattern a concrete JSON pointer (`/a/0/b`) falls under (`/a/*\/b`). */
export function fieldPattern(pointer: string): string {
  return pointer
    .split('/')
    .map((segment) => (/^(0|[1-9][0-9]*)$/.test(segment) ? '*' : segment))
    .join('/');
}

function escapePointer(name: string): string {
  return name.replaceAll('~', '~0').replaceAll('/', '~1');
}

/** The subset of JSON Schema (2020-12) our content specifications are written in. */
export interface JsonSchema {
  $schema?: string;
  $id?: string;
  title?: string;
  description?: string;
  type?: 'object' | 'array' | 'string' | 'number' | 'integer' | 'boolean';
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean;
  items?: JsonSchema;
  minItems?: number;
  maxItems?: number;
  enum?: readonly (string | number)[];
  pattern?: string;
  /** Asserted (not just annotated) by the content validators: see content-ajv.ts. */
  format?: 'date' | 'date-time';
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
}
