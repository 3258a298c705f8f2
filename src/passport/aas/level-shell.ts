import type { AasV3Submodel } from '../../standards/aas/elements.ts';
import { nameplateSubmodel } from '../../standards/aas/idta-nameplate.ts';
import { globalReference, SEMANTICS } from '../../standards/aas/semantics.ts';
import type { LevelFacts } from '../credentials/level-credentials.ts';
import { type LevelPassport, levelDigitalLink } from '../levels/levels.ts';
import { dppIdOf, type PassportHeader } from '../record/passport-header.ts';
import { type AasV3Shell, submodelReference } from './aas-v3.ts';
import { dppMetaSubmodel } from './dpp-meta.ts';

/** GS1's batch/lot (AI 10) as a specific asset id of a batch's shell. */
const GS1_BATCH = 'https://gs1.org/voc/hasBatchLotNumber';

/** The submodels of a level's shell, in the order the shell lists them. */
export const LEVEL_SUBMODEL_ID_SHORTS = ['Nameplate', 'DppMeta'] as const;

/**
 * A model's or batch's shell IRI: `{PUBLIC_BASE_URL}/aas/{environment}/levels/{serviceUid}` (a level has no token
 * id; its service UID is the UUID of its dppId).
 */
export function levelShellId(
  publicBaseUrl: string,
  level: Pick<LevelPassport, 'environment' | 'serviceUid'>,
) {
  return `${publicBaseUrl}/aas/${level.environment}/levels/${level.serviceUid}`;
}

/** The service UID a level shell IRI names, if it is one of this environment's. */
export function serviceUidOfLevelShellId(id: string, publicBaseUrl: string, environment: string) {
  const prefix = `${publicBaseUrl}/aas/${environment}/levels/`;
  if (!id.startsWith(prefix)) return undefined;
  const uid = id.slice(prefix.length);
  return /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(uid) ? uid : undefined;
}

function idShortOf(level: LevelPassport): string {
  return level.lot === null
    ? `ModelPassport_${level.gtin}`
    : `BatchPassport_${level.gtin}_${level.lot.replace(/[^A-Za-z0-9_]/g, '_')}`;
}

/**
 * A model or batch passport as AAS v3.0 (docs/granularity.md "On the resolver"). The asset of a model is a
 * product type (`assetKind` `Type`); a batch is produced goods, a set of instances identified by its lot, so
 * `Instance` (AAS 3.0 has no kind for a set; `NotApplicable` would say less). Submodels: the Digital Nameplate
 * 3.0 (no serial; a batch's date of manufacture when its data states one) and DppMeta (the EN 18223 header, a
 * batch's `ModelDppId` its typed link to the model). The IDTA battery templates map a complete section; a level's
 * data is partial, so they are not derived from it (its data is in the other formats).
 */
export function levelAas(facts: LevelFacts, publicBaseUrl: string) {
  const { view, model } = facts;
  const { level } = view;
  const id = levelShellId(publicBaseUrl, level);
  const link = levelDigitalLink(publicBaseUrl, level);
  const data = Object.values(view.sections);
  const general = (name: string) => {
    for (const section of data) {
      const info = section.generalProductInformation as Record<string, unknown> | undefined;
      if (typeof info?.[name] === 'string' && info[name].trim() !== '') return info[name] as string;
    }
    return undefined;
  };
  const made = level.lot === null ? undefined : general('manufacturingDate');
  const madeAt = made && !Number.isNaN(Date.parse(made)) ? new Date(made) : undefined;
  const header = {
    ...(view.header as unknown as PassportHeader),
    ...(model ? { modelDppId: dppIdOf(model.serviceUid) } : {}),
  };
  const submodels: AasV3Submodel[] = [
    nameplateSubmodel(id, {
      digitalLink: link,
      manufacturerName: general('manufacturerName') ?? facts.companyName,
      productDesignation: view.name,
      orderCode: level.gtin,
      gtin: level.gtin,
      mintedAt: madeAt,
      countryOfOrigin: undefined,
    }),
    dppMetaSubmodel(id, header),
  ];
  const shell: AasV3Shell = {
    modelType: 'AssetAdministrationShell',
    id,
    idShort: idShortOf(level),
    assetInformation: {
      assetKind: level.granularity === 'model' ? 'Type' : 'Instance',
      globalAssetId: link,
      specificAssetIds: [
        { name: 'GTIN', value: level.gtin, semanticId: globalReference(SEMANTICS.gtin) },
        ...(level.lot === null
          ? []
          : [{ name: 'BatchNumber', value: level.lot, semanticId: globalReference(GS1_BATCH) }]),
      ],
    },
    submodels: LEVEL_SUBMODEL_ID_SHORTS.map((idShort) => submodelReference(`${id}/submodels/${idShort}`)),
  };
  return { shell, submodels };
}

/** format=aas of a level: the shell with its submodels inline, as an item's `format=aas` body. */
export function levelAasDocument(facts: LevelFacts, publicBaseUrl: string) {
  const { shell, submodels } = levelAas(facts, publicBaseUrl);
  const { level } = facts.view;
  return {
    success: true,
    id: shell.id,
    idType: 'IRI' as const,
    idShort: shell.idShort,
    modelType: shell.modelType,
    assetInformation: shell.assetInformation,
    submodels,
    extensions: [
      { name: 'granularity', valueType: 'xs:string' as const, value: level.granularity },
      { name: 'environment', valueType: 'xs:string' as const, value: level.environment },
      { name: 'serviceUid', valueType: 'xs:string' as const, value: level.serviceUid },
      { name: 'dppStatus', valueType: 'xs:string' as const, value: level.dppStatus },
    ],
  };
}
