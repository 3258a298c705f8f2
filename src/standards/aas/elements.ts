import { type GlobalReference, globalReference } from './semantics.ts';

/**
 * AAS v3.0 submodel elements as the AAS API serves them (IDTA-01001 metamodel, JSON serialisation): the three
 * kinds our submodels use.
 */
export type AasValueType = 'xs:string' | 'xs:integer' | 'xs:anyURI' | 'xs:date' | 'xs:dateTime';

export interface AasPropertyElement {
  idShort: string;
  modelType: 'Property';
  semanticId: GlobalReference;
  valueType: AasValueType;
  value: string;
}

export interface LangString {
  language: string;
  text: string;
}

export interface AasMultiLanguageProperty {
  idShort: string;
  modelType: 'MultiLanguageProperty';
  semanticId: GlobalReference;
  value: LangString[];
}

export interface AasCollection {
  idShort: string;
  modelType: 'SubmodelElementCollection';
  semanticId: GlobalReference;
  value: AasElement[];
}

export type AasElement = AasPropertyElement | AasMultiLanguageProperty | AasCollection;

export interface AasV3Submodel {
  modelType: 'Submodel';
  id: string;
  idShort: string;
  kind: 'Instance';
  semanticId: GlobalReference;
  submodelElements: AasElement[];
}

/** A Property, or nothing when the value is missing or blank (an AAS value must not be an empty string). */
export function property(
  idShort: string,
  semanticId: string,
  valueType: AasValueType,
  value: string | null | undefined,
): AasPropertyElement[] {
  if (value === null || value === undefined || value.trim() === '') return [];
  return [{ idShort, modelType: 'Property', semanticId: globalReference(semanticId), valueType, value }];
}

/** A MultiLanguageProperty in English, or nothing when the text is missing or blank. */
export function englishText(
  idShort: string,
  semanticId: string,
  text: string | null | undefined,
): AasMultiLanguageProperty[] {
  if (text === null || text === undefined || text.trim() === '') return [];
  return [
    {
      idShort,
      modelType: 'MultiLanguageProperty',
      semanticId: globalReference(semanticId),
      value: [{ language: 'en', text }],
    },
  ];
}

export function collection(idShort: string, semanticId: string, value: AasElement[]): AasCollection {
  return { idShort, modelType: 'SubmodelElementCollection', semanticId: globalReference(semanticId), value };
}
