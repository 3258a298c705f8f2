import { DomainError } from '../errors.ts';
import type { ModelReference } from './aas-v3.ts';
import type { AasElement, AasV3Submodel } from './elements.ts';

/**
 * The serialisation modifiers of IDTA-01002 3.0 §11 on our submodels: level (deep, core), the $metadata,
 * $value (ValueOnly), $reference and $path forms, and idShortPath lookup.
 */
export type Level = 'deep' | 'core';

/** core: the element's direct children only (a collection below the first level comes without its value). */
export function atLevel(element: AasElement, level: Level, depth = 0): AasElement {
  if (element.modelType !== 'SubmodelElementCollection') return element;
  if (level === 'core' && depth >= 1) return { ...element, value: [] };
  return { ...element, value: element.value.map((child) => atLevel(child, level, depth + 1)) };
}

export function submodelAtLevel(submodel: AasV3Submodel, level: Level): AasV3Submodel {
  return { ...submodel, submodelElements: submodel.submodelElements.map((e) => atLevel(e, level)) };
}

/** $metadata: the submodel without its elements. */
export function submodelMetadata(submodel: AasV3Submodel): Omit<AasV3Submodel, 'submodelElements'> {
  const { submodelElements: _elements, ...metadata } = submodel;
  return metadata;
}

/** $metadata of an element: without its value. */
export function elementMetadata(element: AasElement): Omit<AasElement, 'value'> {
  const { value: _value, ...metadata } = element;
  return metadata;
}

/** ValueOnly (IDTA-01002 §11.4.3): a Property's typed value, a MultiLanguageProperty's `{lang: text}` list. */
export function valueOnly(element: AasElement, level: Level = 'deep', depth = 0): unknown {
  switch (element.modelType) {
    case 'Property':
      if (element.valueType === 'xs:integer') {
        const number = Number(element.value);
        return Number.isSafeInteger(number) ? number : element.value;
      }
      return element.value;
    case 'MultiLanguageProperty':
      return element.value.map(({ language, text }) => ({ [language]: text }));
    case 'SubmodelElementCollection':
      if (level === 'core' && depth >= 1) return {};
      return Object.fromEntries(
        element.value.map((child) => [child.idShort, valueOnly(child, level, depth + 1)]),
      );
  }
}

export function submodelValue(submodel: AasV3Submodel, level: Level = 'deep'): Record<string, unknown> {
  return Object.fromEntries(submodel.submodelElements.map((e) => [e.idShort, valueOnly(e, level)]));
}

/** Every idShortPath of the elements (deep), or of the first level only (core). */
export function idShortPaths(elements: AasElement[], level: Level = 'deep', prefix = ''): string[] {
  return elements.flatMap((element) => {
    const path = `${prefix}${element.idShort}`;
    if (element.modelType !== 'SubmodelElementCollection' || level === 'core') return [path];
    return [path, ...idShortPaths(element.value, level, `${path}.`)];
  });
}

const ID_SHORT = /^[A-Za-z][A-Za-z0-9_-]*$/;

/** The element an idShortPath (`A.B.C`) names, or a 404; a malformed path is a 400. */
export function elementAt(submodel: AasV3Submodel, idShortPath: string): AasElement {
  const names = idShortPath.split('.');
  if (idShortPath.length > 1000 || !names.every((name) => ID_SHORT.test(name) || /^.+\[\d+\]$/.test(name))) {
    throw new DomainError('invalid', 'invalid_id_short_path', 'The idShortPath is malformed.');
  }
  let elements: AasElement[] = submodel.submodelElements;
  let found: AasElement | undefined;
  for (const name of names) {
    found = elements.find((element) => element.idShort === name);
    if (!found) break;
    elements = found.modelType === 'SubmodelElementCollection' ? found.value : [];
  }
  if (!found) {
    throw new DomainError('not_found', 'element_not_found', `No submodel element at ${idShortPath}.`);
  }
  return found;
}

/** A ModelReference to an element: the submodel key, then one key per idShort of its path. */
export function elementReference(submodel: AasV3Submodel, idShortPath: string): ModelReference {
  const keys: { type: string; value: string }[] = [{ type: 'Submodel', value: submodel.id }];
  let elements = submodel.submodelElements;
  for (const name of idShortPath.split('.')) {
    const element = elements.find((candidate) => candidate.idShort === name)!;
    keys.push({ type: element.modelType, value: name });
    elements = element.modelType === 'SubmodelElementCollection' ? element.value : [];
  }
  return { type: 'ModelReference', keys };
}
