/**
 * AAS v3.0 element builders for the IDTA-02035 battery submodels: besides Property, MultiLanguageProperty and
 * SubmodelElementCollection (src/standards/aas/elements.ts) these templates use SubmodelElementList and typed values
 * (xs:float, xs:unsignedInt, xs:decimal), and some name their concept by a ModelReference to a concept
 * description. Plain JSON in the AAS v3 serialisation.
 */
export type Reference =
  | { type: 'ExternalReference'; keys: [{ type: 'GlobalReference'; value: string }] }
  | { type: 'ModelReference'; keys: [{ type: 'ConceptDescription'; value: string }] };

export type ValueType =
  | 'xs:string'
  | 'xs:anyURI'
  | 'xs:date'
  | 'xs:dateTime'
  | 'xs:float'
  | 'xs:decimal'
  | 'xs:double'
  | 'xs:integer'
  | 'xs:unsignedInt';

export interface Element {
  modelType: 'Property' | 'MultiLanguageProperty' | 'SubmodelElementCollection' | 'SubmodelElementList';
  idShort?: string;
  semanticId: Reference;
  [member: string]: unknown;
}

export interface BatterySubmodel {
  modelType: 'Submodel';
  id: string;
  idShort: string;
  kind: 'Instance';
  semanticId: Reference;
  submodelElements: Element[];
}

/** An external (global) concept id; `model: true` for the templates' ModelReference to a concept description. */
export function ref(value: string, model = false): Reference {
  return model
    ? { type: 'ModelReference', keys: [{ type: 'ConceptDescription', value }] }
    : { type: 'ExternalReference', keys: [{ type: 'GlobalReference', value }] };
}

type Scalar = string | number | null | undefined;

function lexical(value: Scalar): string | undefined {
  if (value === null || value === undefined) return undefined;
  const text = typeof value === 'number' ? String(value) : value;
  return text.trim() === '' ? undefined : text;
}

/** A Property, or nothing when the value is missing (an AAS value is never an empty string). */
export function prop(idShort: string, semanticId: Reference, valueType: ValueType, value: Scalar): Element[] {
  const text = lexical(value);
  return text === undefined ? [] : [{ idShort, modelType: 'Property', semanticId, valueType, value: text }];
}

export function english(idShort: string, semanticId: Reference, text: Scalar): Element[] {
  const value = lexical(text);
  return value === undefined
    ? []
    : [{ idShort, modelType: 'MultiLanguageProperty', semanticId, value: [{ language: 'en', text: value }] }];
}

export function smc(idShort: string, semanticId: Reference, value: Element[]): Element {
  return { idShort, modelType: 'SubmodelElementCollection', semanticId, value };
}

/** A list item collection: no idShort (AASd-120), the list's item concept. */
export function item(semanticId: Reference, value: Element[]): Element {
  return { modelType: 'SubmodelElementCollection', semanticId, value };
}

/** An empty list has no value member (an AAS value list is absent or has items). */
function listValue(items: Element[]): { value?: Element[] } {
  return items.length > 0 ? { value: items } : {};
}

/** A SubmodelElementList of collections whose items all carry `itemSemanticId`. */
export function collectionList(
  idShort: string,
  semanticId: Reference,
  itemSemanticId: Reference,
  items: Element[],
): Element {
  return {
    idShort,
    modelType: 'SubmodelElementList',
    semanticId,
    orderRelevant: true,
    semanticIdListElement: itemSemanticId,
    typeValueListElement: 'SubmodelElementCollection',
    ...listValue(items),
  };
}

/** A SubmodelElementList of string Properties (document identifiers, agents), each carrying `itemSemanticId`. */
export function stringList(
  idShort: string,
  semanticId: Reference,
  itemSemanticId: Reference,
  values: string[],
): Element {
  return {
    idShort,
    modelType: 'SubmodelElementList',
    semanticId,
    orderRelevant: true,
    semanticIdListElement: itemSemanticId,
    typeValueListElement: 'Property',
    valueTypeListElement: 'xs:string',
    ...listValue(
      values.map((value) => ({
        modelType: 'Property',
        semanticId: itemSemanticId,
        valueType: 'xs:string',
        value,
      })),
    ),
  };
}

export function submodel(
  id: string,
  idShort: string,
  semanticId: string,
  elements: Element[],
): BatterySubmodel {
  return {
    modelType: 'Submodel',
    id,
    idShort,
    kind: 'Instance',
    semanticId: ref(semanticId),
    submodelElements: elements,
  };
}
