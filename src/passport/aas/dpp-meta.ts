import { type AasV3Submodel, collection, property } from '../../standards/aas/elements.ts';
import { globalReference } from '../../standards/aas/semantics.ts';
import type { PassportHeader } from '../record/passport-header.ts';

/**
 * IDTA-02099-1-0 "Digital Product Passport – Part 1: Metadata" (idShort DppMeta): the EN 18223 passport
 * header as a submodel. The IDTA-01002 DPP annex names its semanticId
 * `urn:samm:io.admin-shell.idta.dpp_meta:1.0.0#DppMeta` ("exact identifier not yet finalized"); the elements
 * take the header's member names in the same namespace. No validator we run has a table for it yet.
 */
const NAMESPACE = 'urn:samm:io.admin-shell.idta.dpp_meta:1.0.0';
export const DPP_META_SEMANTIC_ID = `${NAMESPACE}#DppMeta`;

const concept = (name: string) => `${NAMESPACE}#${name}`;

/** The header as a DppMeta submodel; members without a value (no economic operator set yet) are left out. */
export function dppMetaSubmodel(shellId: string, header: PassportHeader): AasV3Submodel {
  return {
    modelType: 'Submodel',
    id: `${shellId}/submodels/DppMeta`,
    idShort: 'DppMeta',
    kind: 'Instance',
    semanticId: globalReference(DPP_META_SEMANTIC_ID),
    submodelElements: [
      ...property(
        'DigitalProductPassportId',
        concept('digitalProductPassportId'),
        'xs:anyURI',
        header.digitalProductPassportId,
      ),
      ...property(
        'UniqueProductIdentifier',
        concept('uniqueProductIdentifier'),
        'xs:anyURI',
        header.uniqueProductIdentifier,
      ),
      ...property('Granularity', concept('granularity'), 'xs:string', header.granularity),
      ...property('DppSchemaVersion', concept('dppSchemaVersion'), 'xs:string', header.dppSchemaVersion),
      ...property('DppStatus', concept('dppStatus'), 'xs:string', header.dppStatus),
      ...property('LastUpdate', concept('lastUpdate'), 'xs:dateTime', header.lastUpdated),
      ...property(
        'EconomicOperatorId',
        concept('economicOperatorId'),
        'xs:string',
        header.economicOperatorId,
      ),
      ...property('FacilityId', concept('facilityId'), 'xs:string', header.facilityId),
      // An item's links to its batch and model passports (docs/en18223.md).
      ...property('BatchDppId', concept('batchDppId'), 'xs:anyURI', header.batchDppId),
      ...property('ModelDppId', concept('modelDppId'), 'xs:anyURI', header.modelDppId),
      collection(
        'ContentSpecificationIds',
        concept('contentSpecificationIds'),
        header.contentSpecificationIds.flatMap((id, index) =>
          property(`ContentSpecificationId${index + 1}`, concept('contentSpecificationId'), 'xs:string', id),
        ),
      ),
    ],
  };
}
