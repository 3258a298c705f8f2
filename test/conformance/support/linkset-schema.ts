// GS1's own JSON schemas (test/fixtures/gs1/, sources in its README), compiled as GS1's resolver test suite compiles
// them: ajv (draft-07), strict mode off, a `$schema` ajv does not know read as draft-07.
import { readFileSync } from 'node:fs';
import { Ajv, type ErrorObject } from 'ajv';

function gs1Schema(file: string): Record<string, unknown> {
  const schema = JSON.parse(readFileSync(new URL(`../../fixtures/gs1/${file}`, import.meta.url), 'utf8'));
  return { ...schema, $schema: 'http://json-schema.org/draft-07/schema#' };
}

export const GS1_SCHEMA_FILES = {
  linkset: 'test/fixtures/gs1/gs1-linkset-schema.json',
  refLinkset: 'test/fixtures/gs1/ref-gs1-linkset-schema.json',
  resolverDescription: 'test/fixtures/gs1/resolver-description-file.schema.json',
} as const;

type Verdict = { valid: boolean; errors: ErrorObject[] };

function checker(file: string): (document: unknown) => Verdict {
  const validate = new Ajv({ allErrors: true, strict: false, logger: false }).compile(gs1Schema(file));
  return (document) => {
    const valid = validate(document) as boolean;
    return { valid, errors: valid ? [] : [...(validate.errors ?? [])] };
  };
}

/** The linkset schema GS1's resolver test suite uses (github.com/gs1/linkset). */
export const checkGs1Linkset = checker('gs1-linkset-schema.json');
/** The newer linkset schema the standard publishes at ref.gs1.org (itemDescription and description). */
export const checkRefGs1Linkset = checker('ref-gs1-linkset-schema.json');
/** The resolver description file schema of GS1's reference resolver (github.com/gs1/GS1_DigitalLink_Resolver_CE). */
export const checkGs1ResolverDescription = checker('resolver-description-file.schema.json');
