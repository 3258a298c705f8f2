import type { AasV3Submodel } from '../../standards/aas/elements.ts';
import { nameplateSubmodel } from '../../standards/aas/idta-nameplate.ts';
import type { globalReference } from '../../standards/aas/semantics.ts';
import { digitalLink } from '../../standards/gs1/digital-link.ts';
import { passportHeader } from '../record/passport-header.ts';
import type { AasPassportRow } from './aas-passports.ts';
import { dppMetaSubmodel } from './dpp-meta.ts';
import {
  type AasSubmodel,
  first,
  passportAssetInformation,
  securitySubmodel,
  shellId,
  sustainabilitySubmodel,
  text,
} from './shell.ts';

/**
 * A passport as pure AAS v3.0 (IDTA-01001): the shell (its submodels by ModelReference, no `idType`, no
 * inline submodels) and its four submodels — Digital Nameplate 3.0 (IDTA-02006), DppMeta (IDTA-02099, the
 * EN 18223 header), SustainabilityData and Security (our own concepts, as in `format=aas`).
 */
export interface ModelReference {
  type: 'ModelReference';
  keys: { type: string; value: string }[];
}

export interface AasV3Shell {
  modelType: 'AssetAdministrationShell';
  id: string;
  idShort: string;
  assetInformation: {
    assetKind: 'Instance' | 'Type';
    globalAssetId: string;
    specificAssetIds: { name: string; value: string; semanticId: ReturnType<typeof globalReference> }[];
  };
  submodels: ModelReference[];
}

export function submodelReference(id: string): ModelReference {
  return { type: 'ModelReference', keys: [{ type: 'Submodel', value: id }] };
}

export function shellReference(id: string): ModelReference {
  return { type: 'ModelReference', keys: [{ type: 'AssetAdministrationShell', value: id }] };
}

/** The submodel idShorts of every passport shell, in the order the shell lists them. */
export const SUBMODEL_ID_SHORTS = ['Nameplate', 'DppMeta', 'SustainabilityData', 'Security'] as const;

function v3(submodel: AasSubmodel): AasV3Submodel {
  return { ...submodel, kind: 'Instance' };
}

export function passportSubmodels(passport: AasPassportRow, publicBaseUrl: string): AasV3Submodel[] {
  const id = shellId(publicBaseUrl, passport.environment, passport.tokenId);
  const metadata = passport.metadataCache as { name?: unknown; custom_dpp_data?: Record<string, unknown> };
  const custom = metadata.custom_dpp_data ?? {};
  const link = digitalLink(publicBaseUrl, passport.environment, passport.gtin, passport.tokenId);
  const manufacturerName = text(first(custom, 'manufacturer_name', 'manufacturer')) ?? passport.companyName;
  const header = passportHeader(
    {
      serviceUid: passport.serviceUid,
      tokenId: passport.tokenId,
      gtin: passport.gtin,
      environment: passport.environment,
      status: passport.status,
      revokedAt: passport.revokedAt,
      dppStatus: passport.dppStatus,
      retainUntil: passport.retainUntil,
      lastUpdated: passport.lastUpdated,
      economicOperatorId: passport.economicOperatorId,
      facilityId: passport.facilityId,
      productGroupSpecificationIds: passport.productGroupSpecificationIds,
      levels: passport.levels,
    },
    publicBaseUrl,
  );
  return [
    nameplateSubmodel(id, {
      digitalLink: link,
      manufacturerName,
      productDesignation:
        text(metadata.name) ?? passport.productId ?? passport.gtin ?? `Passport ${passport.tokenId}`,
      orderCode: passport.productId ?? passport.gtin ?? passport.tokenId,
      gtin: passport.gtin,
      serialNumber: passport.tokenId,
      mintedAt: passport.mintTimestamp,
      countryOfOrigin: text(first(custom, 'originCountry', 'origin_country')),
    }),
    dppMetaSubmodel(id, header),
    v3(sustainabilitySubmodel(id, passport)),
    v3(securitySubmodel(id, passport, passport)),
  ];
}

export function passportShell(passport: AasPassportRow, publicBaseUrl: string): AasV3Shell {
  const id = shellId(publicBaseUrl, passport.environment, passport.tokenId);
  return {
    modelType: 'AssetAdministrationShell',
    id,
    idShort: `Passport_${passport.tokenId}`,
    assetInformation: passportAssetInformation(passport, publicBaseUrl),
    submodels: SUBMODEL_ID_SHORTS.map((idShort) => submodelReference(`${id}/submodels/${idShort}`)),
  };
}
