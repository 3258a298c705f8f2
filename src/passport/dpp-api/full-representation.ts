import { CONTENT_SPECIFICATION_IDS } from '../record/passport-header.ts';

/**
 * EN 18222 `representation=full` (the expanded form): the header's members as they are, each content section
 * as a DataElementCollection in `elements`, objects as DataElementCollections, arrays as
 * MultiValuedDataElements, scalars as SingleValuedDataElements with an xsd value type. Members whose value is
 * null are left out (an element states a value; the compressed form keeps them as null).
 */

export type DataElement =
  | {
      elementId: string;
      objectType: 'SingleValuedDataElement';
      valueDataType: 'xsd:string' | 'xsd:dateTime' | 'xsd:boolean' | 'xsd:integer' | 'xsd:double';
      value: string | number | boolean;
    }
  | { elementId: string; objectType: 'MultiValuedDataElement'; elements: DataElement[] }
  | { elementId: string; objectType: 'DataElementCollection'; elements: DataElement[] };

const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

/** One node as a data element named `elementId`; undefined for null (left out). */
export function dataElement(elementId: string, value: unknown): DataElement | undefined {
  if (value === null || value === undefined) return undefined;
  if (Array.isArray(value)) {
    return {
      elementId,
      objectType: 'MultiValuedDataElement',
      elements: children(value.map((item, index) => [String(index), item])),
    };
  }
  switch (typeof value) {
    case 'string':
      return {
        elementId,
        objectType: 'SingleValuedDataElement',
        valueDataType: DATE_TIME.test(value) ? 'xsd:dateTime' : 'xsd:string',
        value,
      };
    case 'number':
      return {
        elementId,
        objectType: 'SingleValuedDataElement',
        valueDataType: Number.isInteger(value) ? 'xsd:integer' : 'xsd:double',
        value,
      };
    case 'boolean':
      return { elementId, objectType: 'SingleValuedDataElement', valueDataType: 'xsd:boolean', value };
    case 'object':
      return {
        elementId,
        objectType: 'DataElementCollection',
        elements: children(Object.entries(value as Record<string, unknown>)),
      };
    default:
      return undefined;
  }
}

function children(entries: [string, unknown][]): DataElement[] {
  return entries.flatMap(([key, item]) => {
    const element = dataElement(key, item);
    return element ? [element] : [];
  });
}

/** The full representation of a compressed document (the sections it holds; restricted ones already removed). */
export function fullRepresentation(document: Record<string, unknown>): Record<string, unknown> {
  const header: Record<string, unknown> = {};
  const elements: DataElement[] = [];
  // Our own sections, and each product-group section the header lists (urn:dpp-service:spec:battery:1.0.0).
  const listed = Array.isArray(document.contentSpecificationIds) ? document.contentSpecificationIds : [];
  for (const [key, value] of Object.entries(document)) {
    if (CONTENT_SPECIFICATION_IDS.includes(key) || listed.includes(key)) {
      const element = dataElement(key, value);
      if (element) elements.push(element);
    } else {
      header[key] = value;
    }
  }
  return { ...header, elements };
}
