/** An AAS v3 external reference to a global concept (IRI or IRDI). */
export interface GlobalReference {
  type: 'ExternalReference';
  keys: [{ type: 'GlobalReference'; value: string }];
}

export function globalReference(value: string): GlobalReference {
  return { type: 'ExternalReference', keys: [{ type: 'GlobalReference', value }] };
}

// Concepts with no public dictionary entry are ours, under one URN namespace.
const OWN = 'urn:dpp-service:aas:1';

/** Semantic ids of the shell's identifiers, submodels and properties. */
export const SEMANTICS = {
  gtin: 'https://gs1.org/voc/gtin',
  serialNumber: 'https://gs1.org/voc/serialNumber',
  // The spec's flat shell lists Properties only, so its nameplate cannot carry the IDTA template's mandatory
  // collections (address, markings): it names our own concept; the AAS API serves IDTA-02006 3.0 in full.
  nameplate: `${OWN}:DigitalNameplate`,
  yearOfConstruction: '0173-1#02-AAP906#001',
  manufacturerName: '0173-1#02-AAO677#002',
  productDesignation: '0173-1#02-AAW338#001',
  nameplateSerialNumber: '0173-1#02-AAM556#002',
  countryOfOrigin: '0173-1#02-AAO259#004',
  sustainability: `${OWN}:SustainabilityData`,
  security: `${OWN}:Security`,
  own: (submodel: string, property: string) => `${OWN}:${submodel}:${property}`,
} as const;
