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
  BP_DN,
  DOCUMENT_ID,
  PCF,
  TD,
} from '../../../standards/aas/battery-semantics.ts';
import type { BatteryData } from '../../content/battery/battery-data.ts';
import { batteryCircularity } from './battery-circularity.ts';
import { batteryProductCondition } from './battery-product-condition.ts';
import { batteryTechnicalData } from './battery-technical-data.ts';

export {
  BATTERY_SUBMODEL_SEMANTIC_IDS,
  type BatteryPassportFacts,
} from '../../../standards/aas/battery-semantics.ts';

/**
 * The battery pack's data as the IDTA-02035 Digital Battery Passport submodels: Battery Nameplate (02035-1
 * 1.1), Technical Data (02035-4 1.0.2), Product Condition (02035-5 1.0.2; only once use data was written),
 * Circularity (02035-7 1.0.2), and the IDTA-02023 1.0.2 Carbon Footprint. Concept ids and cardinalities as the
 * templates give them; where each field of ours goes: docs/battery-passport.md. Due diligence and the detailed
 * composition are not mapped yet (they stay in the JSON form).
 */
export function batterySubmodels(facts: BatteryPassportFacts, data: BatteryData): BatterySubmodel[] {
  return [
    batteryNameplate(facts, data),
    batteryTechnicalData(facts, data),
    batteryCarbonFootprint(facts, data),
    ...(data.performanceAndDurability.batteryCondition ? [batteryProductCondition(facts, data)] : []),
    batteryCircularity(facts, data),
  ];
}

function batteryNameplate(facts: BatteryPassportFacts, data: BatteryData): BatterySubmodel {
  const g = data.generalProductInformation;
  const c = data.conformityAndLabels;
  const marking = ref('0112/2///61360_7#AAS009#001');
  return submodel(
    `${facts.shellId}/submodels/BatteryNameplate`,
    'BatteryNameplate',
    BATTERY_SUBMODEL_SEMANTIC_IDS.BatteryNameplate,
    [
      ...prop('URIOfTheProduct', ref('0112/2///61987#ABN590#002'), 'xs:anyURI', facts.digitalLink),
      ...english('ManufacturerName', ref('0112/2///61987#ABA565#009'), g.manufacturerName),
      smc(
        'AddressInformation',
        ref('https://admin-shell.io/zvei/nameplate/1/0/ContactInformations/AddressInformation'),
        [...english('Company', ref('0173-1#02-AAW001#001'), g.manufacturerName)],
      ),
      ...prop('SerialNumber', ref('0112/2///61987#ABA951#009'), 'xs:string', facts.serialNumber),
      ...prop('DateOfManufacture', ref('0112/2///61987#ABB757#007'), 'xs:date', g.manufacturingDate),
      ...prop(
        'DateOfPuttingIntoService',
        ref(`${BP_DN}#dateOfPuttingIntoService`),
        'xs:date',
        g.puttingIntoServiceDate,
      ),
      ...prop(
        'UniqueFacilityIdentifier',
        ref('https://admin-shell.io/idta/nameplate/3/0/UniqueFacilityIdentifier'),
        'xs:string',
        g.manufacturingFacilityId,
      ),
      ...prop('LifeCycleStage', ref('0173-1#02-ABL841#001'), 'xs:string', g.batteryStatus),
      ...prop('OperatorIdentifier', ref(`${BP_DN}#operatorIdentifier`), 'xs:string', g.operatorIdentifier),
      ...prop(
        'ManufacturerIdentifier',
        ref(`${TD}#manufacturerIdentifier`),
        'xs:string',
        g.manufacturerIdentifier,
      ),
      collectionList(
        'Markings',
        ref('0112/2///61360_7#AAS006'),
        marking,
        c.markings.map((m) =>
          item(marking, [
            ...prop('MarkingName', ref('0112/2///61987#ABA231#009'), 'xs:string', m.name),
            ...prop(
              'DesignationOfCertificateOrApproval',
              ref('0112/2///61987#ABH783#003'),
              'xs:string',
              m.certificateDesignation,
            ),
            ...prop('IssueDate', ref('0112/2///61987#ABO097#001'), 'xs:date', m.issueDate),
            ...prop('ExpiryDate', ref('0112/2///61987#ABH830#002'), 'xs:date', m.expiryDate),
          ]),
        ),
      ),
      stringList(
        'EUDeclarationOfConformity',
        ref(`${BP_DN}#euDeclarationOfConformity`),
        DOCUMENT_ID,
        c.euDeclarationOfConformity,
      ),
      stringList(
        'ResultsOfTestReportsProvingCompliance',
        ref(`${BP_DN}#resultsOfTestReportsProvingCompliance`),
        DOCUMENT_ID,
        c.testReportsProvingCompliance,
      ),
    ],
  );
}

/**
 * IDTA-02023 Carbon Footprint 1.0.2: the whole footprint per kWh (its phase: the whole boundary of Art. 7), then
 * one footprint per life cycle stage.
 */
function batteryCarbonFootprint(facts: BatteryPassportFacts, data: BatteryData): BatterySubmodel {
  const c = data.carbonFootprint;
  const stages: [string, number][] = [
    ['raw material acquisition and pre-processing', c.rawMaterialAcquisitionKgCo2ePerKwh],
    ['main product production', c.mainProductionKgCo2ePerKwh],
    ['distribution', c.distributionKgCo2ePerKwh],
    ['end of life and recycling', c.endOfLifeKgCo2ePerKwh],
  ];
  const footprint = ref(`${PCF}/ProductCarbonFootprint/1/0`);
  const method = ref('0173-1#02-ABG854#003');
  const phase = ref('0173-1#02-ABG858#003');
  const entry = (kgCo2e: number, phases: [string]) =>
    item(footprint, [
      stringList('PcfCalculationMethods', ref(`${PCF}/PcfCalculationMethods/1/0`), method, [
        c.calculationMethod,
      ]),
      ...prop('PcfCO2eq', ref('0173-1#02-ABG855#003'), 'xs:decimal', kgCo2e),
      ...prop('ReferenceImpactUnitForCalculation', ref('0173-1#02-ABG856#003'), 'xs:string', 'kWh'),
      ...prop('QuantityOfMeasureForCalculation', ref('0173-1#02-ABG857#003'), 'xs:double', 1),
      stringList('LifeCyclePhases', ref(`${PCF}/LifeCyclePhases/1/0`), phase, phases),
      ...prop(
        'PublicationDate',
        ref(`${PCF}/PublicationDate/1/0`),
        'xs:dateTime',
        `${c.publicationDate}T00:00:00Z`,
      ),
    ]);
  return submodel(
    `${facts.shellId}/submodels/BatteryCarbonFootprint`,
    'BatteryCarbonFootprint',
    BATTERY_SUBMODEL_SEMANTIC_IDS.BatteryCarbonFootprint,
    [
      collectionList('ProductCarbonFootprints', ref(`${PCF}/ProductCarbonFootprints/1/0`), footprint, [
        // The template takes one phase per footprint: the total names the whole boundary of Art. 7.
        entry(c.totalKgCo2ePerKwh, ['raw material acquisition to end of life and recycling']),
        ...stages.map(([name, kgCo2e]) => entry(kgCo2e, [name])),
      ]),
    ],
  );
}
