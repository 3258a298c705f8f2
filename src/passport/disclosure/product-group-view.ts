import { contentSpecifications } from '../content/content-specification.ts';
import type { Role } from '../content/disclosure.ts';
import type { ProductGroupEntry } from '../content/pinned-sql.ts';
import { discloseContent } from './disclose-content.ts';

/**
 * A passport's product-group data as a representation member: specification id → the data cut to what
 * `roles` read (docs/disclosure.md). A specification this process does not know is left out (fail closed), and
 * so is one of which the roles read nothing.
 */
export function disclosedProductGroupData(
  entries: readonly ProductGroupEntry[],
  roles: Iterable<Role>,
): Record<string, Record<string, unknown>> {
  const held = [...roles];
  const view: Record<string, Record<string, unknown>> = {};
  for (const entry of entries) {
    const specification = contentSpecifications.get(entry.specificationId);
    if (!specification) continue;
    const disclosed = discloseContent(entry.data, specification.policy, held);
    if (Object.keys(disclosed).length > 0) view[entry.specificationId] = disclosed;
  }
  return view;
}
