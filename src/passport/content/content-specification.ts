import type { ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import { BATTERY_1_0_0 } from './battery/battery-1.0.0.ts';
import { newContentAjv } from './content-ajv.ts';
import type { DisclosurePolicy, JsonSchema } from './disclosure.ts';

/**
 * Product-group content specifications (issue 25 item 2): versioned data models a passport pins.
 *
 * Id form: `urn:dpp-service:spec:<group>:<version>` — `group` a lower-case product group name
 * (`battery`), `version` semantic (`1.0.0`). A passport pins one version per group; a new version of a group
 * is a new specification beside the old one, which stays registered for the passports pinned to it.
 * docs/content-specifications.md.
 */
export interface ContentSpecification {
  id: string;
  group: string;
  version: string;
  title: string;
  /** JSON Schema 2020-12 of the product-group data. */
  schema: JsonSchema;
  /** Which roles read each field (data only: not enforced yet). */
  policy: DisclosurePolicy;
}

const ID =
  /^urn:dpp-service:spec:([a-z][a-z0-9-]{0,39}):((0|[1-9][0-9]{0,5})\.(0|[1-9][0-9]{0,5})\.(0|[1-9][0-9]{0,5}))$/;

/** `{group, version}` of a specification id, or undefined when it is not of our form. */
export function parseSpecificationId(id: string): { group: string; version: string } | undefined {
  const match = ID.exec(id);
  return match ? { group: match[1]!, version: match[2]! } : undefined;
}

/** One offending field of a write: RFC 6901 JSON pointer into the submitted data, and what is wrong. */
export interface ContentViolation {
  pointer: string;
  message: string;
  keyword: string;
}

/** The specifications the service knows; ids never change meaning once registered. */
export class ContentSpecificationRegistry {
  readonly #specs = new Map<string, { spec: ContentSpecification; validate: ValidateFunction }>();
  readonly #ajv = newContentAjv();

  constructor(specs: readonly ContentSpecification[] = []) {
    for (const spec of specs) this.register(spec);
  }

  /** Adds a specification; an id already registered is refused (a published version is immutable). */
  register(spec: ContentSpecification): void {
    const parsed = parseSpecificationId(spec.id);
    if (!parsed || parsed.group !== spec.group || parsed.version !== spec.version) {
      throw new Error(
        `Content specification id ${spec.id} is not urn:dpp-service:spec:<group>:<semver> of its group/version.`,
      );
    }
    if (this.#specs.has(spec.id)) throw new Error(`Content specification ${spec.id} is already registered.`);
    this.#specs.set(spec.id, { spec, validate: this.#ajv.compile(spec.schema) });
  }

  get(id: string): ContentSpecification | undefined {
    return this.#specs.get(id)?.spec;
  }

  list(): ContentSpecification[] {
    return [...this.#specs.values()].map((entry) => entry.spec);
  }

  /** Every offending field of `data` against the specification (empty: valid). */
  validate(id: string, data: unknown): ContentViolation[] {
    const entry = this.#specs.get(id);
    if (!entry) throw new Error(`Unknown content specification ${id}.`);
    if (entry.validate(data)) return [];
    return (entry.validate.errors ?? []).map(violation);
  }
}

export function violation(error: ErrorObject): ContentViolation {
  // `required` and `additionalProperties` name the member in params: point at it, not at its parent.
  const params = error.params as { missingProperty?: string; additionalProperty?: string };
  const member = params.missingProperty ?? params.additionalProperty;
  const pointer =
    member === undefined
      ? error.instancePath
      : `${error.instancePath}/${member.replaceAll('~', '~0').replaceAll('/', '~1')}`;
  const message =
    error.keyword === 'additionalProperties'
      ? 'is not a field of this content specification'
      : error.keyword === 'required'
        ? 'is required'
        : (error.message ?? 'is invalid');
  return { pointer: pointer === '' ? '/' : pointer, message, keyword: error.keyword };
}

/** The specifications this service ships. */
export const BUILT_IN_SPECIFICATIONS: readonly ContentSpecification[] = [BATTERY_1_0_0];

/** The process-wide registry (tests may register further versions). */
export const contentSpecifications = new ContentSpecificationRegistry(BUILT_IN_SPECIFICATIONS);
