import {
  type BatterySubmodel,
  collectionList,
  english,
  item,
  prop,
  ref,
  smc,
  stringList,
  submodel,
} from '../../../standards/aas/battery-elements.ts';
import {
  BATTERY_SUBMODEL_SEMANTIC_IDS,
  type BatteryPassportFacts,
  CI,
  CONTACT,
  DOCUMENT_ID,
} from '../../../standards/aas/battery-semantics.ts';
import type { BatteryData } from '../../content/battery/battery-data.ts';

export function batteryCircularity(facts: BatteryPassportFacts, data: BatteryData): BatterySubmodel {
  const c = data.circularity;
  const supplier = ref(`${CI}#SparePartSupplier`);
  const component = ref(`${CI}#Component`);
  const recycled = ref(`${CI}#RecycledContent`);
  return submodel(
    `${facts.shellId}/submodels/BatteryCircularity`,
    'BatteryCircularity',
    BATTERY_SUBMODEL_SEMANTIC_IDS.BatteryCircularity,
    [
      stringList(
        'DismantlingAndRemovalInformation',
        ref(`${CI}#dismantlingAndRemovalInformation`),
        DOCUMENT_ID,
        c.dismantlingInformation,
      ),
      collectionList(
        'SparePartSources',
        ref(`${CI}#sparePartSources`),
        supplier,
        c.sparePartSources.map((source) =>
          item(supplier, [
            ...english('NameOfSupplier', ref(`${CONTACT}#company`), source.supplierName),
            smc('AddressOfSupplier', ref(`${CI}#addressOfSupplier`), [
              ...english('NationalCode', ref(`${CONTACT}#nationalCode`), source.countryCode),
              ...english('PostalCode', ref(`${CONTACT}#postalCode`), source.postalCode),
              ...english('Street', ref(`${CONTACT}#street`), source.street),
            ]),
            smc('EmailAddressOfSupplier', ref(`${CONTACT}#email`), [
              ...prop('EmailAddress', ref(`${CONTACT}#emailAddress`), 'xs:string', source.email),
            ]),
            ...prop(
              'SupplierWebAddress',
              ref(`${CONTACT}#addressOfAdditionalLink`),
              'xs:string',
              source.webAddress,
            ),
            collectionList(
              'Components',
              ref(`${CI}#components`),
              component,
              source.components.map((part) =>
                item(component, [
                  ...prop('PartName', ref(`${CI}#partName`), 'xs:string', part.partName),
                  ...prop('PartNumber', ref(`${CI}#partNumber`), 'xs:string', part.partNumber),
                ]),
              ),
            ),
          ]),
        ),
      ),
      collectionList(
        'RecycledContentInformation',
        ref(`${CI}#recycledContent`),
        recycled,
        c.recycledContent.map((share) =>
          item(recycled, [
            ...prop(
              'PreConsumerShare',
              ref(`${CI}#preConsumerShare`),
              'xs:float',
              share.preConsumerSharePercent,
            ),
            ...prop('RecycledMaterial', ref(`${CI}#recycledMaterial`), 'xs:string', share.material),
            ...prop(
              'PostConsumerShare',
              ref(`${CI}#postConsumerShare`),
              'xs:float',
              share.postConsumerSharePercent,
            ),
          ]),
        ),
      ),
      smc('SafetyMeasures', ref(`${CI}#safetyMeasures`), [
        stringList('SafetyInstructions', ref(`${CI}#safetyInstructions`), DOCUMENT_ID, c.safetyInstructions),
        stringList(
          'ExtinguishingAgents',
          ref(`${CI}#extinguishingAgents`),
          ref(`${CI}#ExtinguishingAgent`),
          c.extinguishingAgents,
        ),
      ]),
      smc('EndOfLifeInformation', ref(`${CI}#endOfLifeInformation`), [
        stringList(
          'WastePrevention',
          ref(`${CI}#wastePrevention`),
          DOCUMENT_ID,
          c.wastePreventionInformation,
        ),
        stringList(
          'SeparateCollection',
          ref(`${CI}#separateCollection`),
          DOCUMENT_ID,
          c.separateCollectionInformation,
        ),
        stringList(
          'InformationOnCollection',
          ref(`${CI}#informationOnCollection`),
          DOCUMENT_ID,
          c.collectionPointsInformation,
        ),
      ]),
      ...prop('RenewableContent', ref(`${CI}#renewableContent`), 'xs:float', c.renewableContentSharePercent),
    ],
  );
}
