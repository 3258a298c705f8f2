import type { BatteryData } from '../../content-specs/battery/battery-data.ts';
import {
  type BatterySubmodel,
  collectionList,
  type Element,
  english,
  item,
  prop,
  ref,
  smc,
  stringList,
  submodel,
} from './battery-elements.ts';

/**
 * The battery pack's data as the IDTA-02035 Digital Battery Passport submodels: Battery Nameplate (02035-1
 * 1.1), Technical Data (02035-4 1.0.2), Product Condition (02035-5 1.0.2; only once use data was written),
 * Circularity (02035-7 1.0.2), and the IDTA-02023 1.0.2 Carbon Footprint. Concept ids and cardinalities as the
 * templates give them; where each field of ours goes: docs/battery-passport.md. Due diligence and the detailed
 * composition are not mapped yet (they stay in the JSON form).
 */

const BP_DN = 'urn:samm:io.admin-shell.idta.batterypass.digital_nameplate:1.0.0';
const TD = 'urn:samm:io.admin-shell.idta.batterypass.technical_data:1.0.0';
const TD_101 = 'urn:samm:io.admin-shell.idta.batterypass.technical_data:1.0.1';
const PC = 'urn:samm:io.admin-shell.idta.batterypass.product_condition:1.0.2';
const CI = 'urn:samm:io.admin-shell.idta.batterypass.circularity:1.0.0';
const CONTACT = 'urn:samm:io.admin-shell.idta.contact_information:1.0.0';
const PCF = 'https://admin-shell.io/idta/CarbonFootprint';
const DOCUMENT_ID = ref('urn:samm:io.admin-shell.idta.handover_documentation:2.0.0#DocumentIdentifier');

export const BATTERY_SUBMODEL_SEMANTIC_IDS = {
  BatteryNameplate: 'https://admin-shell.io/idta/digitalbatterypassport/nameplate/1/0/Nameplate',
  BatteryTechnicalData: 'https://admin-shell.io/idta/digitalbatterypassport/TechnicalData/1/0',
  BatteryCarbonFootprint: `${PCF}/CarbonFootprint/1/0`,
  BatteryProductCondition: `${PC}#ProductCondition`,
  BatteryCircularity: `${CI}#Circularity`,
} as const;

/** What the submodels read besides the battery data: the passport's identity. */
export interface BatteryPassportFacts {
  shellId: string;
  /** The GS1 Digital Link (URIOfTheProduct). */
  digitalLink: string;
  /** The token id: the item's serial number. */
  serialNumber: string;
}

export function batterySubmodels(facts: BatteryPassportFacts, data: BatteryData): BatterySubmodel[] {
  return [
    batteryNameplate(facts, data),
    batteryTechnicalData(facts, data),
    batteryCarbonFootprint(facts, data),
    ...(data.performanceAndDurability.batteryCondition ? [batteryProductCondition(facts, data)] : []),
    batteryCirculariy(facts, data),
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

function batteryTechnicalData(facts: BatteryPassportFacts, data: BatteryData): BatterySubmodel {
  const g = data.generalProductInformation;
  const p = data.performanceAndDurability;
  const m = (id: string) => ref(id, true);
  const powerAt = ref(`${TD}#PowerCapabilityAt`);
  return submodel(
    `${facts.shellId}/submodels/BatteryTechnicalData`,
    'BatteryTechnicalData',
    BATTERY_SUBMODEL_SEMANTIC_IDS.BatteryTechnicalData,
    [
      smc('GeneralInformation', ref('0173-1#02-ABK161#002/0173-1#01-AHX838#002'), [
        ...prop('ManufacturerName', ref('0173-1#02-AAO677#004'), 'xs:string', g.manufacturerName),
        ...prop(
          'ManufacturerIdentifier',
          ref(`${TD}#manufacturerIdentifier`),
          'xs:string',
          g.manufacturerIdentifier,
        ),
        ...prop('BatteryCategory', ref(`${TD}#batteryCategory`), 'xs:string', g.batteryCategory),
        ...prop('BatteryMass', m(`${TD}#batteryMass`), 'xs:float', g.batteryMassKg),
        ...(g.warrantyPeriod
          ? [
              smc('WarrantyInformation', ref(`${TD_101}#warrantyInformation`), [
                ...prop('WarrantyPeriod', ref(`${TD_101}#warrantyPeriod`), 'xs:string', g.warrantyPeriod),
              ]),
            ]
          : []),
      ]),
      smc('TechnicalPropertyAreas', ref('0173-1#02-ABK163#002'), [
        smc('CapacityEnergyVoltage', ref(`${TD}#capacityEnergyVoltage`), [
          ...prop('NominalVoltage', m('0173-1#02-ABL588#001'), 'xs:float', p.nominalVoltageV),
          ...prop('MinVoltage', m('0173-1#02-ABL587#001'), 'xs:float', p.minVoltageV),
          ...prop('MaxVoltage', m('0173-1#02-ABL589#001'), 'xs:float', p.maxVoltageV),
          ...prop('RatedCapacity', m('0173-1#02-ABL869#002'), 'xs:float', p.ratedCapacityAh),
          // The individual battery's fade (Annex XIII 4), where the template puts it.
          ...prop(
            'CapacityFade',
            m('0173-1#02-ABL828#002'),
            'xs:float',
            p.batteryCondition?.capacityFadePercent,
          ),
          ...prop(
            'CertifiedUsableBatteryEnergy',
            m('0173-1#02-ABL829#002'),
            'xs:float',
            p.certifiedUsableEnergyKwh,
          ),
        ]),
        smc('RoundTripEnergyEfficiency', ref(`${TD}#roundTripEnergyEfficiency`), [
          ...prop(
            'InitialRoundTripEnergyEfficiency',
            m('0173-1#02-ABL833#002'),
            'xs:integer',
            p.initialRoundTripEfficiencyPercent,
          ),
          ...prop(
            'RoundTripEnergyEfficiencyAt50PercentOfCycleLife',
            m('0173-1#02-ABL866#002'),
            'xs:integer',
            p.roundTripEfficiencyAt50PercentCycleLifePercent,
          ),
          ...prop(
            'InitialSelfDischargingRate',
            m('0173-1#02-ABL834#002'),
            'xs:integer',
            p.initialSelfDischargeRatePercent,
          ),
        ]),
        smc('Resistance', ref(`${TD}#resistance`), [
          ...prop(
            'InitialInternalResistanceOnBatteryCellLevel',
            m('0173-1#02-ABL844#002'),
            'xs:float',
            p.initialInternalResistanceCellOhm,
          ),
          ...prop(
            'InitialInternalResistanceOnBatteryPackLevel',
            m('0173-1#02-ABL846#002'),
            'xs:float',
            p.initialInternalResistancePackOhm,
          ),
          ...prop(
            'InitialInternalResistanceOnBatteryModuleLevel',
            m('0173-1#02-ABL832#002'),
            'xs:float',
            p.initialInternalResistanceModuleOhm,
          ),
          ...prop(
            'InternalResistanceIncreaseOfBatteryPackLevel',
            ref(`${TD}#internalResistanceIncreaseOfBatteryPack`),
            'xs:float',
            p.internalResistanceIncreasePackPercent,
          ),
        ]),
        smc('PowerCapability', ref(`${TD}#powerCapability`), [
          ...prop(
            'MaximumPermittedBatteryPower',
            m('0173-1#02-ABL843#002'),
            'xs:float',
            p.maximumPermittedPowerW,
          ),
          ...prop('PowerFade', m('0173-1#02-ABL852#002'), 'xs:float', p.powerFadePercent),
          ...prop(
            'RatioNominalBatteryPowerAndBatteryEnergy',
            ref(`${TD}#powerCapabilityRatio`),
            'xs:float',
            p.nominalPowerToEnergyRatio,
          ),
          collectionList(
            'OriginalPowerCapability',
            ref('0173-1#02-ABL853#002'),
            powerAt,
            p.originalPowerCapability.map((point) =>
              item(powerAt, [
                ...prop('atSoc', ref(`${TD}#atSoC`), 'xs:unsignedInt', point.stateOfChargePercent),
                ...prop('powerCapabilityAt', ref(`${TD}#powerCapabilityAt`), 'xs:float', point.powerW),
              ]),
            ),
          ),
        ]),
        smc('Temperature', ref(`${TD}#temperature`), [
          ...prop(
            'TemperatureRangeIdleState_LowerBoundary',
            m('0173-1#02-ABL842#002'),
            'xs:float',
            p.idleTemperatureLowerC,
          ),
          ...prop(
            'TemperatureRangeIdleState_UpperBoundary',
            m('0173-1#02-ABL871#002'),
            'xs:float',
            p.idleTemperatureUpperC,
          ),
        ]),
        smc('Lifetime', ref(`${TD}#lifetime`), [
          ...prop(
            'ExpectedLifetimeInCalendarYears',
            ref(`${TD}#expectedLifetime`),
            'xs:unsignedInt',
            p.expectedLifetimeYears,
          ),
          ...prop(
            'ExpectedNumberOfCycles',
            ref(`${TD}#expectedNumberOfCycles`),
            'xs:unsignedInt',
            p.expectedLifetimeCycles,
          ),
          ...prop(
            'CapacityThresholdExhaustion',
            m('0173-1#02-ABL838#002'),
            'xs:float',
            p.capacityThresholdForExhaustionPercent,
          ),
          ...prop(
            'CRateOfRelevantCycleLifeTest',
            ref(`${TD}#cRateLifeCycleTest`),
            'xs:decimal',
            p.cRateOfCycleLifeTest,
          ),
        ]),
      ]),
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

function batteryProductCondition(facts: BatteryPassportFacts, data: BatteryData): BatterySubmodel {
  const c = data.performanceAndDurability.batteryCondition!;
  const at = c.measuredAt;
  /** A value with the time it was measured (the template's `<X>Value` + `LastUpdate` pair). */
  const measured = (
    idShort: string,
    member: string,
    valueType: 'xs:float' | 'xs:unsignedInt',
    value: number | undefined,
  ): Element[] =>
    value === undefined
      ? []
      : [
          smc(idShort, ref(`${PC}#${member}`), [
            ...prop(`${idShort}Value`, ref(`${PC}#${member}Value`), valueType, value),
            ...prop('LastUpdate', ref(`${PC}#lastUpdate`), 'xs:dateTime', at),
          ]),
        ];
  const negative = ref(`${PC}#NegativeEvent`);
  return submodel(
    `${facts.shellId}/submodels/BatteryProductCondition`,
    'BatteryProductCondition',
    BATTERY_SUBMODEL_SEMANTIC_IDS.BatteryProductCondition,
    [
      ...measured('EnergyThroughput', 'energyThroughput', 'xs:float', c.energyThroughputKwh),
      ...measured('StateOfCharge', 'stateOfCharge', 'xs:float', c.stateOfChargePercent),
      ...measured('CapacityThroughput', 'capacityThroughput', 'xs:float', c.capacityThroughputAh),
      ...measured('NumberOfFullCycles', 'numberOfFullCycles', 'xs:unsignedInt', c.fullCycles),
      ...measured(
        'StateOfCertifiedEnergy',
        'stateOfCertifiedEnergy',
        'xs:float',
        c.stateOfCertifiedEnergyPercent,
      ),
      ...measured('RemainingEnergy', 'remainingEnergy', 'xs:float', c.remainingEnergyKwh),
      ...measured('RemainingCapacity', 'remainingCapacity', 'xs:float', c.remainingCapacityAh),
      ...(c.negativeEvents && c.negativeEvents.length > 0
        ? [
            collectionList(
              'NegativeEvents',
              ref(`${PC}#negativeEvents`),
              negative,
              c.negativeEvents.map((event) =>
                item(negative, [
                  ...prop(
                    'NegativeEventValue',
                    ref(`${PC}#negativeEventValue`),
                    'xs:string',
                    event.description,
                  ),
                  ...prop('LastUpdate', ref(`${PC}#lastUpdate`), 'xs:dateTime', event.occurredAt),
                ]),
              ),
            ),
          ]
        : []),
      stringList(
        'InformationOnAccidents',
        ref(`${PC}#informationOnAccidents`),
        DOCUMENT_ID,
        c.accidentReports ?? [],
      ),
      smc('TemperatureInformation', ref(`${PC}#temperatureInformation`), [
        ...prop(
          'TimeExtremeHighTemp',
          ref(`${PC}#timeExtremeHighTemp`),
          'xs:float',
          c.hoursAboveTemperatureLimit,
        ),
        ...prop(
          'TimeExtremeLowTemp',
          ref(`${PC}#timeExtremeLowTemp`),
          'xs:float',
          c.hoursBelowTemperatureLimit,
        ),
        ...prop('LastUpdate', ref(`${PC}#lastUpdate`), 'xs:dateTime', at),
      ]),
    ],
  );
}

function batteryCirculariy(facts: BatteryPassportFacts, data: BatteryData): BatterySubmodel {
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
