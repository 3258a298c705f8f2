import {
  count,
  isoDate,
  isoDateTime,
  list,
  number,
  object,
  oneOf,
  percent,
  positive,
  text,
  uri,
  wholePercent,
} from '../schema-builders.ts';

export const BATTERY_CATEGORIES = ['lmt', 'ev', 'industrial', 'sli', 'portable'] as const;
export const BATTERY_STATUSES = ['original', 'repurposed', 'reused', 'remanufactured', 'waste'] as const;
export const RECYCLED_MATERIALS = ['cobalt', 'lithium', 'nickel', 'lead'] as const;
export const CELL_COMPONENTS = ['cathode', 'anode', 'electrolyte', 'separator', 'casing', 'other'] as const;

/** The JSON Schema of the battery pack 1.0.0 (battery-1.0.0.ts): its seven clusters. */
export const BATTERY_1_0_0_SCHEMA = object('EU battery passport data (battery pack 1.0.0).', {
  generalProductInformation: object(
    'General battery and manufacturer information (Annex VI part A, Annex XIII 1(a)).',
    {
      batteryCategory: oneOf('Battery category (Art. 3).', BATTERY_CATEGORIES),
      manufacturerName: text('Manufacturer’s registered name.'),
      manufacturerIdentifier: text('Manufacturer’s unique operator identifier (EORI, GLN, …).', 100),
      manufacturingFacilityId: text('Unique identifier of the manufacturing facility.', 200),
      countryOfProduction: {
        type: 'string',
        pattern: '^[A-Z]{2}$',
        description: 'Country of the place of manufacture (Annex VI part A), ISO 3166-1 alpha-2.',
      },
      manufacturingDate: isoDate('Date of manufacture (YYYY-MM-DD).'),
      puttingIntoServiceDate: isoDate('Date the battery was put into service.'),
      batteryMassKg: positive('Battery mass in kilograms.'),
      batteryStatus: oneOf(
        'Battery status (original, repurposed, reused, remanufactured, waste).',
        BATTERY_STATUSES,
      ),
      operatorIdentifier: text(
        'Identifier of the economic operator placing a repurposed/remanufactured battery.',
        100,
      ),
      warrantyPeriod: text('Period of the commercial warranty (e.g. P8Y or text).', 100),
    },
    [
      'batteryCategory',
      'manufacturerName',
      'manufacturerIdentifier',
      'manufacturingFacilityId',
      'manufacturingDate',
      'batteryMassKg',
      'batteryStatus',
    ],
  ),
  conformityAndLabels: object('Declaration of conformity, labels and test reports.', {
    euDeclarationOfConformity: list(
      uri('Identifier (URI) of an EU declaration of conformity.'),
      'EU declarations of conformity.',
      1,
    ),
    testReportsProvingCompliance: list(
      uri('Identifier (URI) of a test report.'),
      'Results of test reports proving compliance.',
      1,
    ),
    markings: list(
      object(
        'A label or marking on the battery (CE, separate collection symbol, Cd/Pb, capacity label, …).',
        {
          name: text('Name of the marking.', 200),
          certificateDesignation: text('Designation of the certificate or approval.', 200),
          issueDate: isoDate('Date the marking’s certificate was issued.'),
          expiryDate: isoDate('Date the marking’s certificate expires.'),
        },
        ['name'],
      ),
      'Labels and markings.',
      1,
    ),
  }),
  carbonFootprint: object('Carbon footprint (Art. 7).', {
    totalKgCo2ePerKwh: number('Carbon footprint per functional unit, kg CO2e per kWh of total energy.', {
      minimum: 0,
    }),
    rawMaterialAcquisitionKgCo2ePerKwh: number('Share of raw material acquisition and pre-processing.', {
      minimum: 0,
    }),
    mainProductionKgCo2ePerKwh: number('Share of main product production.', { minimum: 0 }),
    distributionKgCo2ePerKwh: number('Share of distribution.', { minimum: 0 }),
    endOfLifeKgCo2ePerKwh: number('Share of end of life and recycling.', { minimum: 0 }),
    performanceClass: text('Carbon footprint performance class.', 20),
    studyUrl: uri('Web link to the public carbon footprint study.'),
    calculationMethod: text(
      'Calculation method / rules followed (e.g. the Art. 7 delegated act, ISO 14067).',
      200,
    ),
    publicationDate: isoDate('Date the carbon footprint declaration was published.'),
  }),
  supplyChainDueDiligence: object(
    'Supply chain due diligence (Art. 52).',
    {
      dueDiligenceReportUrl: uri('The due diligence report.'),
      thirdPartyAssuranceUrls: list(uri('A third-party verification.'), 'Third-party verifications.'),
    },
    ['dueDiligenceReportUrl'],
  ),
  materialsAndComposition: object('Materials and composition.', {
    chemistry: text('Battery chemistry (e.g. NMC811, LFP).', 100),
    criticalRawMaterials: list(
      text('Critical raw material present above 0.1 % weight.', 100),
      'Critical raw materials.',
    ),
    hazardousSubstances: list(
      object(
        'A hazardous substance present (other than mercury, cadmium, lead).',
        {
          name: text('Substance name.', 200),
          casNumber: { type: 'string', pattern: '^[0-9]{2,7}-[0-9]{2}-[0-9]$', description: 'CAS number.' },
          location: text('Where in the battery.', 200),
        },
        ['name'],
      ),
      'Hazardous substances.',
    ),
    detailedComposition: list(
      object('Material of a cell component.', {
        component: oneOf('Cell component.', CELL_COMPONENTS),
        material: text('Material name.', 200),
        massPercent: percent('Mass share of the battery, percent.'),
      }),
      'Detailed composition (cathode, anode, electrolyte, …).',
      1,
    ),
  }),
  circularity: object('Circularity and resource efficiency.', {
    dismantlingInformation: list(
      uri('Identifier (URI) of a dismantling document.'),
      'Manuals for dismantling and removal.',
      1,
    ),
    sparePartSources: list(
      object('A source of spare parts.', {
        supplierName: text('Supplier name.', 200),
        countryCode: { type: 'string', pattern: '^[A-Z]{2}$', description: 'ISO 3166-1 alpha-2 country.' },
        postalCode: text('Postal code.', 20),
        street: text('Street and number.', 200),
        email: {
          type: 'string',
          pattern: '^[^@\\s]+@[^@\\s]+$',
          maxLength: 320,
          description: 'Contact e-mail.',
        },
        webAddress: uri('Supplier web address.'),
        components: list(
          object('A replaceable part.', {
            partName: text('Part name.', 200),
            partNumber: text('Part number.', 100),
          }),
          'Parts available from this supplier.',
          1,
        ),
      }),
      'Part numbers and contacts for spare parts.',
    ),
    safetyInstructions: list(
      uri('Identifier (URI) of a safety document.'),
      'Safety measures and instructions.',
      1,
    ),
    extinguishingAgents: list(text('Usable extinguishing agent.', 100), 'Usable extinguishing agents.', 1),
    recycledContent: list(
      object(
        'Recycled content of a material.',
        {
          material: oneOf('Material.', RECYCLED_MATERIALS),
          preConsumerSharePercent: percent('Pre-consumer recycled share, percent.'),
          postConsumerSharePercent: percent('Post-consumer recycled share, percent.'),
        },
        ['material'],
      ),
      'Recycled content (Art. 8).',
      1,
    ),
    renewableContentSharePercent: percent('Share of renewable content, percent.'),
    wastePreventionInformation: list(uri('Document identifier.'), 'End-user role in waste prevention.', 1),
    separateCollectionInformation: list(
      uri('Document identifier.'),
      'End-user role in separate collection.',
      1,
    ),
    collectionPointsInformation: list(uri('Document identifier.'), 'Information on collection points.', 1),
  }),
  performanceAndDurability: object(
    'Performance and durability (Art. 10, Annex IV); `batteryCondition` is the individual battery’s use data.',
    {
      ratedCapacityAh: positive('Rated capacity, Ah.'),
      nominalVoltageV: positive('Nominal voltage, V.'),
      minVoltageV: positive('Minimal voltage, V.'),
      maxVoltageV: positive('Maximal voltage, V.'),
      certifiedUsableEnergyKwh: positive('Certified usable battery energy, kWh.'),
      originalPowerCapability: list(
        object('Power capability at a state of charge.', {
          stateOfChargePercent: wholePercent('State of charge, whole percent.'),
          powerW: positive('Power capability, W.'),
        }),
        'Original power capability.',
        1,
      ),
      maximumPermittedPowerW: positive('Maximum permitted battery power, W.'),
      powerFadePercent: percent('Power fade, percent.'),
      nominalPowerToEnergyRatio: positive('Ratio between nominal power (W) and energy (Wh).'),
      initialRoundTripEfficiencyPercent: wholePercent('Initial round trip energy efficiency, whole percent.'),
      roundTripEfficiencyAt50PercentCycleLifePercent: wholePercent(
        'Round trip energy efficiency at 50 % of cycle life, whole percent.',
      ),
      initialSelfDischargeRatePercent: wholePercent(
        'Initial self-discharging rate, whole percent per month.',
      ),
      initialInternalResistanceCellOhm: positive('Initial internal resistance, cell level, Ω.'),
      initialInternalResistancePackOhm: positive('Initial internal resistance, pack level, Ω.'),
      initialInternalResistanceModuleOhm: positive('Initial internal resistance, module level, Ω.'),
      internalResistanceIncreasePackPercent: percent('Internal resistance increase, pack level, percent.'),
      idleTemperatureLowerC: number('Temperature range in idle state, lower boundary, °C.', {
        minimum: -100,
        maximum: 200,
      }),
      idleTemperatureUpperC: number('Temperature range in idle state, upper boundary, °C.', {
        minimum: -100,
        maximum: 200,
      }),
      expectedLifetimeYears: count('Expected lifetime, calendar years.'),
      expectedLifetimeCycles: count('Expected lifetime, charge-discharge cycles.'),
      capacityThresholdForExhaustionPercent: percent('Capacity threshold for exhaustion, percent.'),
      cRateOfCycleLifeTest: positive('C-rate of the relevant cycle-life test.'),
      batteryCondition: object(
        'The individual battery’s condition, measured in use (state of health and use-phase data).',
        {
          measuredAt: isoDateTime('When these values were measured.'),
          stateOfChargePercent: percent('State of charge, percent.'),
          fullCycles: count('Number of full charge-discharge cycles.'),
          stateOfHealthPercent: percent('State of health (remaining capacity against rated), percent.'),
          capacityFadePercent: percent('Capacity fade since the battery was placed on the market, percent.'),
          stateOfCertifiedEnergyPercent: percent('State of certified energy, percent.'),
          remainingCapacityAh: number('Remaining capacity, Ah.', { minimum: 0 }),
          remainingEnergyKwh: number('Remaining energy, kWh.', { minimum: 0 }),
          energyThroughputKwh: number('Energy throughput, kWh.', { minimum: 0 }),
          capacityThroughputAh: number('Capacity throughput, Ah.', { minimum: 0 }),
          negativeEvents: list(
            object('A negative event (deep discharge, overheating, …).', {
              description: text('What happened.', 500),
              occurredAt: isoDateTime('When.'),
            }),
            'Negative events.',
          ),
          accidentReports: list(uri('Identifier (URI) of an accident report.'), 'Information on accidents.'),
          hoursAboveTemperatureLimit: number('Time spent in extreme high temperatures, hours.', {
            minimum: 0,
          }),
          hoursBelowTemperatureLimit: number('Time spent in extreme low temperatures, hours.', {
            minimum: 0,
          }),
        },
        ['measuredAt', 'stateOfChargePercent', 'fullCycles'],
      ),
    },
    [
      'ratedCapacityAh',
      'nominalVoltageV',
      'minVoltageV',
      'maxVoltageV',
      'originalPowerCapability',
      'maximumPermittedPowerW',
      'powerFadePercent',
      'initialRoundTripEfficiencyPercent',
      'roundTripEfficiencyAt50PercentCycleLifePercent',
      'initialInternalResistanceCellOhm',
      'initialInternalResistancePackOhm',
      'internalResistanceIncreasePackPercent',
      'idleTemperatureLowerC',
      'idleTemperatureUpperC',
      'expectedLifetimeYears',
      'expectedLifetimeCycles',
      'cRateOfCycleLifeTest',
    ],
  ),
});
