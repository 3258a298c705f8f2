import type { DisclosurePolicy, FieldPolicy } from '../disclosure.ts';

/**
 * Annex XIII's four access tiers as our roles (Art. 77(2)):
 * 1. public — everyone;
 * 2. legitimate interest and the Commission (battery model: detailed composition, spare parts, dismantling,
 *    safety) — repairers/second-life operators and recyclers (Art. 77(2)(a): the purposes named are
 *    dismantling, repair, repurposing, recycling), authorities, notified bodies (Art. 77(2)(b) also gives them
 *    point 2); not the customer (a purchaser's legitimate interest is about the individual battery, tier 4);
 * 3. notified bodies, market surveillance and the Commission (test reports proving compliance);
 * 4. individual battery, legitimate interest (state of health and use data) — the customer (the purchaser and
 *    those acting on their behalf, Art. 77(2)(c)(b)), repairers and recyclers (second life, repurposing), and
 *    authorities (the Commission and market surveillance read what the passport holds); not notified bodies
 *    (they assess the model, not a battery in use).
 */
export const ANNEX_XIII_TIERS = {
  public: {
    tier: 'annexXIII-1-public',
    roles: ['public', 'customer', 'repairer', 'recycler', 'authority', 'notifiedBody'],
  },
  legitimateInterest: {
    tier: 'annexXIII-2-legitimate-interest',
    roles: ['repairer', 'recycler', 'authority', 'notifiedBody'],
  },
  authorities: { tier: 'annexXIII-3-authorities', roles: ['authority', 'notifiedBody'] },
  individual: {
    tier: 'annexXIII-4-individual-battery',
    roles: ['customer', 'repairer', 'recycler', 'authority'],
  },
} as const satisfies Record<string, FieldPolicy>;
const { public: T1, legitimateInterest: T2, authorities: T3, individual: T4 } = ANNEX_XIII_TIERS;

/** Every field of the model and its Annex XIII tier (test/unit/content-specs: a field without one fails). */
export const BATTERY_1_0_0_POLICY: DisclosurePolicy = {
  '/generalProductInformation/batteryCategory': T1,
  '/generalProductInformation/manufacturerName': T1,
  '/generalProductInformation/manufacturerIdentifier': T1,
  '/generalProductInformation/manufacturingFacilityId': T1,
  '/generalProductInformation/countryOfProduction': T1,
  '/generalProductInformation/manufacturingDate': T1,
  '/generalProductInformation/puttingIntoServiceDate': T1,
  '/generalProductInformation/batteryMassKg': T1,
  // The status changes over the battery's life (Annex XIII 4) but is also what anyone needs to know first.
  '/generalProductInformation/batteryStatus': T1,
  '/generalProductInformation/operatorIdentifier': T1,
  '/generalProductInformation/warrantyPeriod': T1,
  '/conformityAndLabels/euDeclarationOfConformity': T1,
  '/conformityAndLabels/testReportsProvingCompliance': T3,
  '/conformityAndLabels/markings/*/name': T1,
  '/conformityAndLabels/markings/*/certificateDesignation': T1,
  '/conformityAndLabels/markings/*/issueDate': T1,
  '/conformityAndLabels/markings/*/expiryDate': T1,
  '/carbonFootprint/totalKgCo2ePerKwh': T1,
  '/carbonFootprint/rawMaterialAcquisitionKgCo2ePerKwh': T1,
  '/carbonFootprint/mainProductionKgCo2ePerKwh': T1,
  '/carbonFootprint/distributionKgCo2ePerKwh': T1,
  '/carbonFootprint/endOfLifeKgCo2ePerKwh': T1,
  '/carbonFootprint/performanceClass': T1,
  '/carbonFootprint/studyUrl': T1,
  '/carbonFootprint/calculationMethod': T1,
  '/carbonFootprint/publicationDate': T1,
  '/supplyChainDueDiligence/dueDiligenceReportUrl': T1,
  '/supplyChainDueDiligence/thirdPartyAssuranceUrls': T1,
  '/materialsAndComposition/chemistry': T1,
  '/materialsAndComposition/criticalRawMaterials': T1,
  '/materialsAndComposition/hazardousSubstances/*/name': T1,
  '/materialsAndComposition/hazardousSubstances/*/casNumber': T1,
  '/materialsAndComposition/hazardousSubstances/*/location': T1,
  '/materialsAndComposition/detailedComposition/*/component': T2,
  '/materialsAndComposition/detailedComposition/*/material': T2,
  '/materialsAndComposition/detailedComposition/*/massPercent': T2,
  '/circularity/dismantlingInformation': T2,
  '/circularity/sparePartSources/*/supplierName': T2,
  '/circularity/sparePartSources/*/countryCode': T2,
  '/circularity/sparePartSources/*/postalCode': T2,
  '/circularity/sparePartSources/*/street': T2,
  '/circularity/sparePartSources/*/email': T2,
  '/circularity/sparePartSources/*/webAddress': T2,
  '/circularity/sparePartSources/*/components/*/partName': T2,
  '/circularity/sparePartSources/*/components/*/partNumber': T2,
  '/circularity/safetyInstructions': T2,
  '/circularity/extinguishingAgents': T2,
  '/circularity/recycledContent/*/material': T1,
  '/circularity/recycledContent/*/preConsumerSharePercent': T1,
  '/circularity/recycledContent/*/postConsumerSharePercent': T1,
  '/circularity/renewableContentSharePercent': T1,
  '/circularity/wastePreventionInformation': T1,
  '/circularity/separateCollectionInformation': T1,
  '/circularity/collectionPointsInformation': T1,
  '/performanceAndDurability/ratedCapacityAh': T1,
  '/performanceAndDurability/nominalVoltageV': T1,
  '/performanceAndDurability/minVoltageV': T1,
  '/performanceAndDurability/maxVoltageV': T1,
  '/performanceAndDurability/certifiedUsableEnergyKwh': T1,
  '/performanceAndDurability/originalPowerCapability/*/stateOfChargePercent': T1,
  '/performanceAndDurability/originalPowerCapability/*/powerW': T1,
  '/performanceAndDurability/maximumPermittedPowerW': T1,
  '/performanceAndDurability/powerFadePercent': T1,
  '/performanceAndDurability/nominalPowerToEnergyRatio': T1,
  '/performanceAndDurability/initialRoundTripEfficiencyPercent': T1,
  '/performanceAndDurability/roundTripEfficiencyAt50PercentCycleLifePercent': T1,
  '/performanceAndDurability/initialSelfDischargeRatePercent': T1,
  '/performanceAndDurability/initialInternalResistanceCellOhm': T1,
  '/performanceAndDurability/initialInternalResistancePackOhm': T1,
  '/performanceAndDurability/initialInternalResistanceModuleOhm': T1,
  '/performanceAndDurability/internalResistanceIncreasePackPercent': T1,
  '/performanceAndDurability/idleTemperatureLowerC': T1,
  '/performanceAndDurability/idleTemperatureUpperC': T1,
  '/performanceAndDurability/expectedLifetimeYears': T1,
  '/performanceAndDurability/expectedLifetimeCycles': T1,
  '/performanceAndDurability/capacityThresholdForExhaustionPercent': T1,
  '/performanceAndDurability/cRateOfCycleLifeTest': T1,
  '/performanceAndDurability/batteryCondition/measuredAt': T4,
  '/performanceAndDurability/batteryCondition/stateOfChargePercent': T4,
  '/performanceAndDurability/batteryCondition/fullCycles': T4,
  '/performanceAndDurability/batteryCondition/stateOfHealthPercent': T4,
  '/performanceAndDurability/batteryCondition/capacityFadePercent': T4,
  '/performanceAndDurability/batteryCondition/stateOfCertifiedEnergyPercent': T4,
  '/performanceAndDurability/batteryCondition/remainingCapacityAh': T4,
  '/performanceAndDurability/batteryCondition/remainingEnergyKwh': T4,
  '/performanceAndDurability/batteryCondition/energyThroughputKwh': T4,
  '/performanceAndDurability/batteryCondition/capacityThroughputAh': T4,
  '/performanceAndDurability/batteryCondition/negativeEvents/*/description': T4,
  '/performanceAndDurability/batteryCondition/negativeEvents/*/occurredAt': T4,
  '/performanceAndDurability/batteryCondition/accidentReports': T4,
  '/performanceAndDurability/batteryCondition/hoursAboveTemperatureLimit': T4,
  '/performanceAndDurability/batteryCondition/hoursBelowTemperatureLimit': T4,
};
