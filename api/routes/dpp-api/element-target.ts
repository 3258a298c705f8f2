import { ElementPathError, parseElementPath } from '../../../src/passport/dpp-api/element-path.ts';
import { DomainError } from '../../../src/platform/errors.ts';
import { PRODUCT_GROUP_PREFIX } from './document-sections.ts';

/**
 * The product-group section and the path inside it that a writable element path names (EN 18222
 * UpdateDataElement, for items and levels alike): `$['urn:dpp-service:spec:…']['member']…`.
 */
export function writableElement(elementPath: string) {
  let segments: ReturnType<typeof parseElementPath>;
  try {
    segments = parseElementPath(elementPath);
  } catch (error) {
    if (!(error instanceof ElementPathError)) throw error;
    throw new DomainError('invalid', 'invalid_element_path', `Not a normalized path: ${error.message}.`);
  }
  const [section, ...inside] = segments;
  if (!section || !('name' in section) || !section.name.startsWith(PRODUCT_GROUP_PREFIX) || !inside.length) {
    throw new DomainError(
      'invalid',
      'invalid_element_path',
      `Writable elements lie inside a product-group section: $['${PRODUCT_GROUP_PREFIX}…']['member']….`,
    );
  }
  return { specificationId: section.name, inside };
}
