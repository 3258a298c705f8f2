import type { Chip, Passport } from '../../platform/db/entities/index.ts';
import { type GlobalReference, globalReference, SEMANTICS } from '../../standards/aas/semantics.ts';
import { digitalLink } from '../../standards/gs1/digital-link.ts';
import { NTAG_424_DNA } from '../../standards/sun/index.ts';

type ValueType = 'xs:string' | 'xs:integer';

export interface AasProperty {
  idShort: string;
  modelType: 'Property';
  valueType: ValueType;
  semanticId: GlobalReference;
  value: string;
}

export interface AasSubmodel {
  idShort: string;
  id: string;
  modelType: 'Submodel';
  semanticId: GlobalReference;
  submodelElements: AasProperty[];
}

/** The shell's IRI: `{PUBLIC_BASE_URL}/aas/{environment}/{tokenId}` (token ids are per environment). */
export function shellId(publicBaseUrl: string, environment: string, tokenId: string): string {
  return `${publicBaseUrl}/aas/${environment}/${tokenId}`;
}

export function text(value: unknown): string | undefined {
  if (typeof value === 'string') return value.trim() === '' ? undefined : value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (value !== null && typeof value === 'object') return JSON.stringify(value);
  return undefined;
}

export function first(source: Record<string, unknown>, ...keys: string[]): unknown {
  for (const key of keys) if (source[key] !== undefined && source[key] !== null) return source[key];
  return undefined;
}

/** Builds a submodel, leaving out properties without a value (AAS values must not be empty). */
export function submodel(
  baseId: string,
  idShort: string,
  semanticId: string,
  properties: [idShort: string, semanticId: string, valueType: ValueType, value: unknown][],
): AasSubmodel {
  const submodelElements: AasProperty[] = [];
  for (const [name, semantic, valueType, raw] of properties) {
    const value = text(raw);
    if (value === undefined) continue;
    submodelElements.push({
      idShort: name,
      modelType: 'Property',
      valueType,
      semanticId: globalReference(semantic),
      value,
    });
  }
  return {
    idShort,
    id: `${baseId}/submodels/${idShort}`,
    modelType: 'Submodel',
    semanticId: globalReference(semanticId),
    submodelElements,
  };
}

/** What the SustainabilityData and Security submodels read of a passport (an entity or a row of the AAS API). */
export type PassportFacts = Pick<
  Passport,
  | 'tokenId'
  | 'status'
  | 'material'
  | 'metadataCache'
  | 'lockedDepositWei'
  | 'chipUid'
  | 'contractAddress'
  | 'transactionHash'
  | 'metadataUrl'
>;

/** The passport's SustainabilityData submodel (our own concepts), under the shell id `id`. */
export function sustainabilitySubmodel(id: string, passport: PassportFacts): AasSubmodel {
  const custom =
    (passport.metadataCache as { custom_dpp_data?: Record<string, unknown> }).custom_dpp_data ?? {};
  const own = SEMANTICS.own;
  return submodel(id, 'SustainabilityData', SEMANTICS.sustainability, [
    ['Material', own('SustainabilityData', 'Material'), 'xs:string', passport.material],
    [
      'MaterialComposition',
      own('SustainabilityData', 'MaterialComposition'),
      'xs:string',
      first(custom, 'material_composition', 'materialComposition'),
    ],
    ['HsCode', own('SustainabilityData', 'HsCode'), 'xs:string', first(custom, 'hsCode', 'hs_code')],
    [
      'ConformityDeclaration',
      own('SustainabilityData', 'ConformityDeclaration'),
      'xs:string',
      custom.conformity_url,
    ],
    ['SvhcPresent', own('SustainabilityData', 'SvhcPresent'), 'xs:string', custom.svhc_exists],
    [
      'CarbonFootprint',
      own('SustainabilityData', 'CarbonFootprint'),
      'xs:string',
      first(custom, 'carbon_footprint', 'carbonFootprint'),
    ],
    [
      'CircularDepositWei',
      own('SustainabilityData', 'CircularDepositWei'),
      'xs:integer',
      passport.lockedDepositWei,
    ],
    [
      'RecyclingStatus',
      own('SustainabilityData', 'RecyclingStatus'),
      'xs:string',
      passport.status === 'RECYCLED' ? 'RECYCLED' : 'NOT_RECYCLED',
    ],
  ]);
}

/** The passport's Security submodel (chip and chain facts), under the shell id `id`. */
export function securitySubmodel(
  id: string,
  passport: PassportFacts,
  chip: Pick<Chip, 'verificationCount' | 'lastVerifiedAt'> | null,
): AasSubmodel {
  const own = SEMANTICS.own;
  return submodel(id, 'Security', SEMANTICS.security, [
    ['ChipType', own('Security', 'ChipType'), 'xs:string', NTAG_424_DNA],
    ['ChipUid', own('Security', 'ChipUid'), 'xs:string', passport.chipUid],
    ['VerificationCount', own('Security', 'VerificationCount'), 'xs:integer', chip?.verificationCount ?? 0],
    ['LastVerifiedAt', own('Security', 'LastVerifiedAt'), 'xs:string', chip?.lastVerifiedAt?.toISOString()],
    ['Status', own('Security', 'Status'), 'xs:string', passport.status],
    ['ContractAddress', own('Security', 'ContractAddress'), 'xs:string', passport.contractAddress],
    ['MintTransactionHash', own('Security', 'MintTransactionHash'), 'xs:string', passport.transactionHash],
    ['MetadataUrl', own('Security', 'MetadataUrl'), 'xs:string', passport.metadataUrl],
  ]);
}

/** A passport's asset: its Digital Link as globalAssetId, GTIN and serial (token id) as specific asset ids. */
export function passportAssetInformation(
  passport: Pick<Passport, 'environment' | 'gtin' | 'tokenId'>,
  publicBaseUrl: string,
) {
  return {
    assetKind: 'Instance' as const,
    globalAssetId: digitalLink(publicBaseUrl, passport.environment, passport.gtin, passport.tokenId),
    specificAssetIds: [
      ...(passport.gtin
        ? [{ name: 'GTIN', value: passport.gtin, semanticId: globalReference(SEMANTICS.gtin) }]
        : []),
      {
        name: 'SerialNumber',
        value: passport.tokenId,
        semanticId: globalReference(SEMANTICS.serialNumber),
      },
    ],
  };
}

/**
 * The passport's asset administration shell as the spec's `aas` body: AAS v3 structures (each submodel is
 * a valid AAS 3.0 Submodel) with the spec's `idType: 'IRI'` and its submodels inline.
 */
export function buildShell(passport: Passport, chip: Chip | null, publicBaseUrl: string) {
  const id = shellId(publicBaseUrl, passport.environment, passport.tokenId);
  const metadata = passport.metadataCache as { name?: unknown; custom_dpp_data?: Record<string, unknown> };
  const custom = metadata.custom_dpp_data ?? {};
  const own = SEMANTICS.own;
  const nameplate = submodel(id, 'DigitalNameplate', SEMANTICS.nameplate, [
    [
      'ManufacturerName',
      SEMANTICS.manufacturerName,
      'xs:string',
      first(custom, 'manufacturer_name', 'manufacturer'),
    ],
    ['ManufacturerProductDesignation', SEMANTICS.productDesignation, 'xs:string', metadata.name],
    ['SerialNumber', SEMANTICS.nameplateSerialNumber, 'xs:string', passport.tokenId],
    [
      'YearOfConstruction',
      SEMANTICS.yearOfConstruction,
      'xs:string',
      String(passport.createdAt.getUTCFullYear()),
    ],
    ['GTIN', SEMANTICS.gtin, 'xs:string', passport.gtin],
    [
      'CountryOfOrigin',
      SEMANTICS.countryOfOrigin,
      'xs:string',
      first(custom, 'originCountry', 'origin_country'),
    ],
    [
      'BatchNumber',
      own('DigitalNameplate', 'BatchNumber'),
      'xs:string',
      first(custom, 'batch_number', 'batchNumber'),
    ],
    ['ProductId', own('DigitalNameplate', 'ProductId'), 'xs:string', passport.productId],
  ]);
  const sustainability = sustainabilitySubmodel(id, passport);
  const security = securitySubmodel(id, passport, chip);
  return {
    id,
    idType: 'IRI' as const,
    idShort: `Passport_${passport.tokenId}`,
    modelType: 'AssetAdministrationShell' as const,
    assetInformation: passportAssetInformation(passport, publicBaseUrl),
    submodels: [nameplate, sustainability, security],
    extensions: [
      { name: 'passportGeneration', valueType: 'xs:string' as const, value: 'V3' },
      { name: 'environment', valueType: 'xs:string' as const, value: passport.environment },
      { name: 'serviceUid', valueType: 'xs:string' as const, value: passport.serviceUid },
      { name: 'status', valueType: 'xs:string' as const, value: passport.status },
    ],
  };
}

export type AssetAdministrationShellBody = ReturnType<typeof buildShell>;
