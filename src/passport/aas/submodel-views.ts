import { DomainError } from '../../platform/errors.ts';
import type { ModelReference } from './aas-v3.ts';

/**
 * The serialisation modifiers of IDTA-01002 3.0 §11 on our submodels: level (deep, core), the $metadata,
 * $value (ValueOnly), $reference and $path forms, and idShortPath lookup (`A.B`, list items `List[0]`).
 * Elements are Property, MultiLanguageProperty, SubmodelElementCollection and SubmodelElementList (the
 * IDTA-02035 battery submodels use lists; their items have no idShort).
 */
export type Level = 'deep' | 'core';

/** What these views read of an element (src/standards/aas/elements.ts and src/standards/aas/battery-elements.ts fit). */
export interface ViewElement {
  idShort?: string | undefined;
  modelType: string;
  value?: unknown;
  valueType?: unknown;
}

export interface ViewSubmodel {
  id: string;
  idShort: string;
  submodelElements: ViewElement[];
}

const isCollection = (element: ViewElement) => element.modelType === 'SubmodelElementCollection';
const isList = (element: ViewElement) => element.modelType === 'SubmodelElementList';

/** The children of a collection or the items of a list (none for anything else). */
export function childrenOf(element: ViewElement): ViewElement[] {
  return (isCollection(element) || isList(element)) && Array.isArray(element.value)
    ? (element.value as ViewElement[])
    : [];
}

/** core: the element's direct children only (a collection or list below the first level comes without them). */
export function atLevel<E extends ViewElement>(element: E, level: Level, depth = 0): E {
  if (!isCollection(element) && !isList(element)) return element;
  if (level === 'core' && depth >= 1) {
    if (isCollection(element)) return { ...element, value: [] };
    // A list's value is absent or has items.
    const { value: _items, ...rest } = element;
    return rest as E;
  }
  if (!Array.isArray(element.value)) return element;
  return { ...element, value: childrenOf(element).map((child) => atLevel(child, level, depth + 1)) };
}

export function submodelAtLevel<S extends ViewSubmodel>(submodel: S, level: Level): S {
  return { ...submodel, submodelElements: submodel.submodelElements.map((e) => atLevel(e, level)) };
}

/** $metadata: the submodel without its elements. */
export function submodelMetadata<S extends ViewSubmodel>(submodel: S): Omit<S, 'submodelElements'> {
  const { submodelElements: _elements, ...metadata } = submodel;
  return metadata;
}

/** $metadata of an element: without its value. */
export function elementMetadata<E extends ViewElement>(element: E): Omit<E, 'value'> {
  const { value: _value, ...metadata } = element;
  return metadata;
}

const INTEGER_TYPES = new Set(['xs:integer', 'xs:unsignedInt', 'xs:int', 'xs:long', 'xs:short']);
const DECIMAL_TYPES = new Set(['xs:float', 'xs:double', 'xs:decimal']);

/**
 * ValueOnly (IDTA-01002 §11.4.3): a Property's typed value (numbers as JSON numbers: an integer when it is a
 * safe integer, a decimal when it reads back unchanged, else its text), a MultiLanguageProperty's `{lang: text}`
 * list, a collection as an object, a list as an array of its items' values.
 */
export function valueOnly(element: ViewElement, level: Level = 'deep', depth = 0): unknown {
  switch (element.modelType) {
    case 'Property': {
      const text = element.value as string;
      const type = String(element.valueType);
      if (INTEGER_TYPES.has(type)) {
        const number = Number(text);
        return Number.isSafeInteger(number) ? number : text;
      }
      if (DECIMAL_TYPES.has(type)) {
        const number = Number(text);
        return Number.isFinite(number) && /^-?\d+(\.\d+)?$/.test(text) ? number : text;
      }
      return text;
    }
    case 'MultiLanguageProperty':
      return (element.value as { language: string; text: string }[]).map(({ language, text }) => ({
        [language]: text,
      }));
    case 'SubmodelElementCollection':
      if (level === 'core' && depth >= 1) return {};
      return Object.fromEntries(
        childrenOf(element).map((child) => [child.idShort, valueOnly(child, level, depth + 1)]),
      );
    case 'SubmodelElementList':
      if (level === 'core' && depth >= 1) return [];
      return childrenOf(element).map((item) => valueOnly(item, level, depth + 1));
    default:
      return undefined;
  }
}

export function submodelValue(submodel: ViewSubmodel, level: Level = 'deep'): Record<string, unknown> {
  return Object.fromEntries(submodel.submodelElements.map((e) => [e.idShort, valueOnly(e, level)]));
}

/** The idShortPaths below an element at `path` (a collection's `path.child`, a list's `path[i]`), deep. */
export function pathsBelow(element: ViewElement, path: string): string[] {
  if (isCollection(element)) return idShortPaths(childrenOf(element), 'deep', `${path}.`);
  if (!isList(element)) return [];
  return childrenOf(element).flatMap((item, index) => {
    const itemPath = `${path}[${index}]`;
    return [itemPath, ...pathsBelow(item, itemPath)];
  });
}

/** Every idShortPath of the elements (deep), or of the first level only (core). */
export function idShortPaths(elements: ViewElement[], level: Level = 'deep', prefix = ''): string[] {
  return elements.flatMap((element) => {
    const path = `${prefix}${element.idShort}`;
    return level === 'core' ? [path] : [path, ...pathsBelow(element, path)];
  });
}

const SEGMENT = /^([A-Za-z][A-Za-z0-9_-]*)((?:\[\d{1,6}\])*)$/;

/** The steps of an idShortPath: each an idShort, then the list indexes after it; a malformed path is a 400. */
function steps(idShortPath: string): { idShort: string; indexes: number[] }[] {
  const invalid = () => new DomainError('invalid', 'invalid_id_short_path', 'The idShortPath is malformed.');
  if (idShortPath.length > 1000) throw invalid();
  return idShortPath.split('.').map((segment) => {
    const match = SEGMENT.exec(segment);
    if (!match) throw invalid();
    return {
      idShort: match[1]!,
      indexes: [...match[2]!.matchAll(/\[(\d+)\]/g)].map((index) => Number(index[1])),
    };
  });
}

/** The elements along an idShortPath, each with its reference key; undefined when one step finds nothing. */
function walk(
  submodel: ViewSubmodel,
  idShortPath: string,
): { element: ViewElement; keys: { type: string; value: string }[] } | undefined {
  let elements: ViewElement[] = submodel.submodelElements;
  let found: ViewElement | undefined;
  const keys: { type: string; value: string }[] = [];
  for (const step of steps(idShortPath)) {
    found = elements.find((element) => element.idShort === step.idShort);
    if (!found) return undefined;
    keys.push({ type: found.modelType, value: step.idShort });
    for (const index of step.indexes) {
      if (!isList(found)) return undefined;
      found = childrenOf(found)[index];
      if (!found) return undefined;
      keys.push({ type: found.modelType, value: String(index) });
    }
    elements = isCollection(found) ? childrenOf(found) : [];
  }
  return found ? { element: found, keys } : undefined;
}

/** The element an idShortPath (`A.B.C`, `List[0].C`) names, or a 404; a malformed path is a 400. */
export function elementAt(submodel: ViewSubmodel, idShortPath: string): ViewElement {
  const found = walk(submodel, idShortPath);
  if (!found) {
    throw new DomainError('not_found', 'element_not_found', `No submodel element at ${idShortPath}.`);
  }
  return found.element;
}

/** A ModelReference to an element: the submodel key, then one key per step (a list item's: its index). */
export function elementReference(submodel: ViewSubmodel, idShortPath: string): ModelReference {
  const found = walk(submodel, idShortPath);
  if (!found) {
    throw new DomainError('not_found', 'element_not_found', `No submodel element at ${idShortPath}.`);
  }
  return { type: 'ModelReference', keys: [{ type: 'Submodel', value: submodel.id }, ...found.keys] };
}
