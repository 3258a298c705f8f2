import { enforceContentRules } from '../content/content-rules.ts';
import type { ContentSpecificationRegistry } from '../content/content-specification.ts';
import { ContentInvalid, requireSpecification } from '../content/passport-content.ts';

type Data = Record<string, unknown>;

/**
 * One section of a model or batch passport checked as every write of it is (create, PUT, merge patch, element):
 * partial — what it holds must follow the specification, nothing is required (the items complete it) — and the
 * product group's rules over the change from `before` (undefined: the first write).
 */
export function checkLevelSection(
  registry: ContentSpecificationRegistry,
  specificationId: string,
  before: Data | undefined,
  data: unknown,
): { id: string; group: string; data: Data } {
  const spec = requireSpecification(registry, specificationId);
  const violations = registry.validate(spec.id, data).filter((violation) => violation.keyword !== 'required');
  if (violations.length > 0) throw new ContentInvalid(spec.id, violations);
  enforceContentRules(spec.group, before, data as Data, 'operator');
  return { id: spec.id, group: spec.group, data: data as Data };
}
