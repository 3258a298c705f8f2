/** The battery pack 1.0.0 data as TypeScript sees it once its JSON Schema accepted it (battery-1.0.0.ts). */
export interface BatteryData {
  generalProductInformation: {
    batteryCategory: string;
    manufacturerName: string;
    manufacturerIdentifier: string;
    manufacturingFacilityId: string;
    countryOfProduction?: string;
    manufacturingDate: string;
    puttingIntoServiceDate?: string;
    batteryMassKg: number;
    batteryStatus: string;
    operatorIdentifier?: string;
    warrantyPeriod?: string;
  };
  conformityAndLabels: {
    euDeclarationOfConformity: string[];
    testReportsProvingCompliance: string[];
    markings: { name: string; certificateDesignation?: string; issueDate?: string; expiryDate?: string }[];
  };
  carbonFootprint: {
    totalKgCo2ePerKwh: number;
    rawMaterialAcquisitionKgCo2ePerKwh: number;
    mainProductionKgCo2ePerKwh: number;
    distributionKgCo2ePerKwh: number;
    endOfLifeKgCo2ePerKwh: number;
    performanceClass: string;
    studyUrl: string;
    calculationMethod: string;
    publicationDate: string;
  };
  supplyChainDueDiligence: { dueDiligenceReportUrl: string; thirdPartyAssuranceUrls?: string[] };
  materialsAndComposition: {
    chemistry: string;
    criticalRawMaterials: string[];
    hazardousSubstances: { name: string; casNumber?: string; location?: string }[];
    detailedComposition: { component: string; material: string; massPercent: number }[];
  };
  circularity: {
    dismantlingInformation: string[];
    sparePartSources: {
      supplierName: string;
      countryCode: string;
      postalCode: string;
      street: string;
      email: string;
      webAddress: string;
      components: { partName: string; partNumber: string }[];
    }[];
    safetyInstructions: string[];
    extinguishingAgents: string[];
    recycledContent: {
      material: string;
      preConsumerSharePercent?: number;
      postConsumerSharePercent?: number;
    }[];
    renewableContentSharePercent: number;
    wastePreventionInformation: string[];
    separateCollectionInformation: string[];
    collectionPointsInformation: string[];
  };
  performanceAndDurability: {
    ratedCapacityAh: number;
    nominalVoltageV: number;
    minVoltageV: number;
    maxVoltageV: number;
    certifiedUsableEnergyKwh?: number;
    originalPowerCapability: { stateOfChargePercent: number; powerW: number }[];
    maximumPermittedPowerW: number;
    powerFadePercent: number;
    nominalPowerToEnergyRatio?: number;
    initialRoundTripEfficiencyPercent: number;
    roundTripEfficiencyAt50PercentCycleLifePercent: number;
    initialSelfDischargeRatePercent?: number;
    initialInternalResistanceCellOhm: number;
    initialInternalResistancePackOhm: number;
    initialInternalResistanceModuleOhm?: number;
    internalResistanceIncreasePackPercent: number;
    idleTemperatureLowerC: number;
    idleTemperatureUpperC: number;
    expectedLifetimeYears: number;
    expectedLifetimeCycles: number;
    capacityThresholdForExhaustionPercent?: number;
    cRateOfCycleLifeTest: number;
    batteryCondition?: {
      measuredAt: string;
      stateOfChargePercent: number;
      fullCycles: number;
      stateOfHealthPercent?: number;
      capacityFadePercent?: number;
      stateOfCertifiedEnergyPercent?: number;
      remainingCapacityAh?: number;
      remainingEnergyKwh?: number;
      energyThroughputKwh?: number;
      capacityThroughputAh?: number;
      negativeEvents?: { description: string; occurredAt: string }[];
      accidentReports?: string[];
      hoursAboveTemperatureLimit?: number;
      hoursBelowTemperatureLimit?: number;
    };
  };
}
