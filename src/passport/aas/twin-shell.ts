import type { AssetTwin, Chip } from '../../platform/db/entities/index.ts';
import { globalReference, SEMANTICS } from '../../standards/aas/semantics.ts';
import { NTAG_424_DNA } from '../../standards/sun/index.ts';
import { submodel } from './shell.ts';

/** The IRI of a twin's shell before it has a passport: `{PUBLIC_BASE_URL}/aas/{environment}/twins/{id}`. */
export function twinShellId(publicBaseUrl: string, environment: string, serviceInternalId: string): string {
  return `${publicBaseUrl}/aas/${environment}/twins/${serviceInternalId}`;
}

/**
 * The shell of a provisioned twin that has no passport yet (ERP systems hold the twin's id from the
 * provisioning on): the same three submodels with what the twin knows. Once minted, the twin resolves to
 * its passport's shell instead.
 */
export function buildTwinShell(twin: AssetTwin, chip: Chip | null, publicBaseUrl: string) {
  const id = twinShellId(publicBaseUrl, twin.environment, twin.serviceInternalId);
  const own = SEMANTICS.own;
  const nameplate = submodel(id, 'DigitalNameplate', SEMANTICS.nameplate, [
    ['ManufacturerProductDesignation', SEMANTICS.productDesignation, 'xs:string', twin.name],
    ['GTIN', SEMANTICS.gtin, 'xs:string', twin.gtin],
    ['ProductId', own('DigitalNameplate', 'ProductId'), 'xs:string', twin.serviceInternalId],
    ['MaterialNumber', own('DigitalNameplate', 'MaterialNumber'), 'xs:string', twin.materialNumber],
    ['OrderId', own('DigitalNameplate', 'OrderId'), 'xs:string', twin.orderId],
  ]);
  const sustainability = submodel(id, 'SustainabilityData', SEMANTICS.sustainability, [
    ['Material', own('SustainabilityData', 'Material'), 'xs:string', twin.materialNumber],
    // Nothing is recycled before it has a passport (and a submodel needs at least one element).
    ['RecyclingStatus', own('SustainabilityData', 'RecyclingStatus'), 'xs:string', 'NOT_RECYCLED'],
  ]);
  const security = submodel(id, 'Security', SEMANTICS.security, [
    ['ChipType', own('Security', 'ChipType'), 'xs:string', twin.chipUid ? NTAG_424_DNA : undefined],
    ['ChipUid', own('Security', 'ChipUid'), 'xs:string', twin.chipUid],
    ['VerificationCount', own('Security', 'VerificationCount'), 'xs:integer', chip?.verificationCount],
    ['LastVerifiedAt', own('Security', 'LastVerifiedAt'), 'xs:string', chip?.lastVerifiedAt?.toISOString()],
    ['Status', own('Security', 'Status'), 'xs:string', twin.status],
  ]);
  return {
    id,
    idType: 'IRI' as const,
    idShort: `Twin_${twin.serviceInternalId}`,
    modelType: 'AssetAdministrationShell' as const,
    assetInformation: {
      assetKind: 'Instance' as const,
      globalAssetId: id,
      specificAssetIds: [
        ...(twin.gtin
          ? [{ name: 'GTIN', value: twin.gtin, semanticId: globalReference(SEMANTICS.gtin) }]
          : []),
        {
          name: 'ServiceInternalId',
          value: twin.serviceInternalId,
          semanticId: globalReference(own('AssetInformation', 'ServiceInternalId')),
        },
      ],
    },
    submodels: [nameplate, sustainability, security],
    extensions: [
      { name: 'passportGeneration', valueType: 'xs:string' as const, value: 'V3' },
      { name: 'environment', valueType: 'xs:string' as const, value: twin.environment },
      { name: 'serviceInternalId', valueType: 'xs:string' as const, value: twin.serviceInternalId },
      { name: 'status', valueType: 'xs:string' as const, value: twin.status },
    ],
  };
}
