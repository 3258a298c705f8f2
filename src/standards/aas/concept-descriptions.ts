import type { AasElement, AasV3Submodel } from './elements.ts';

/**
 * Concept descriptions (IDTA-01001 ConceptDescription with an IEC 61360 data specification) of the concepts
 * that are ours (`urn:dpp-service:aas:1:…`): the submodels SustainabilityData and Security and their
 * properties. Concepts of public dictionaries (IEC CDD, ECLASS, GS1, IDTA) are described there, not here.
 */
const OWN_PREFIX = 'urn:dpp-service:aas:1:';
const IEC_61360 = 'https://admin-shell.io/DataSpecificationTemplates/DataSpecificationIec61360/3';

export interface AasConceptDescription {
  modelType: 'ConceptDescription';
  id: string;
  idShort: string;
  embeddedDataSpecifications: {
    dataSpecification: { type: 'ExternalReference'; keys: [{ type: 'GlobalReference'; value: string }] };
    dataSpecificationContent: {
      modelType: 'DataSpecificationIec61360';
      preferredName: { language: string; text: string }[];
      definition: { language: string; text: string }[];
    };
  }[];
}

/** What each of our concepts means (IEC 61360 asks for a definition: AASc-3a-008). */
const DEFINITIONS: Record<string, string> = {
  SustainabilityData:
    'Material, composition, conformity and end-of-life facts of the product the passport is for.',
  Material: 'Main material of the product as its brand declared it.',
  MaterialComposition: 'Materials of the product and their shares, as the brand declared them (JSON).',
  HsCode: 'Harmonized System code of the product.',
  ConformityDeclaration: 'Address of the declaration of conformity of the product.',
  SvhcPresent: 'Whether the product contains a substance of very high concern (REACH).',
  CarbonFootprint: 'Carbon footprint of the product as its brand declared it.',
  CircularDepositWei: 'Deposit locked on chain for the product and paid out on recycling, in wei.',
  RecyclingStatus: 'Whether the product has been recycled (RECYCLED or NOT_RECYCLED).',
  Security: 'Facts of the chip the product carries and of the passport token on chain.',
  ChipType: 'Type of the NFC chip that authenticates the product.',
  ChipUid: 'Unique identifier of the NFC chip (7 bytes, hexadecimal).',
  VerificationCount: 'How many genuine taps of the chip have been verified.',
  LastVerifiedAt: 'When a genuine tap of the chip was last verified (ISO 8601).',
  Status: 'State of the passport (ACTIVE, RECYCLED).',
  ContractAddress: 'Address of the token contract that holds the passport token.',
  MintTransactionHash: 'Hash of the transaction that minted the passport token.',
  MetadataUrl: 'Address of the passport token metadata (IPFS).',
};

/** `CircularDepositWei` → `Circular deposit wei`. */
function words(idShort: string): string {
  const spaced = idShort.replace(/([a-z0-9])([A-Z])/g, '$1 $2').replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2');
  return spaced.charAt(0) + spaced.slice(1).toLowerCase();
}

function describe(id: string, idShort: string): AasConceptDescription {
  return {
    modelType: 'ConceptDescription',
    id,
    idShort,
    embeddedDataSpecifications: [
      {
        dataSpecification: {
          type: 'ExternalReference',
          keys: [{ type: 'GlobalReference', value: IEC_61360 }],
        },
        dataSpecificationContent: {
          modelType: 'DataSpecificationIec61360',
          preferredName: [{ language: 'en', text: words(idShort) }],
          definition: [{ language: 'en', text: DEFINITIONS[idShort] ?? words(idShort) }],
        },
      },
    ],
  };
}

/** The descriptions of our own concepts the submodels use, each once. */
export function conceptDescriptionsOf(submodels: AasV3Submodel[]): AasConceptDescription[] {
  const found = new Map<string, AasConceptDescription>();
  const visit = (id: string, idShort: string) => {
    if (id.startsWith(OWN_PREFIX) && !found.has(id)) found.set(id, describe(id, idShort));
  };
  const walk = (elements: AasElement[]) => {
    for (const element of elements) {
      visit(element.semanticId.keys[0].value, element.idShort);
      if (element.modelType === 'SubmodelElementCollection') walk(element.value);
    }
  };
  for (const submodel of submodels) {
    visit(submodel.semanticId.keys[0].value, submodel.idShort);
    walk(submodel.submodelElements);
  }
  return [...found.values()];
}
