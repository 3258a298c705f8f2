import type { ContentSpecification } from '../content-specification.ts';
import type { DisclosurePolicy, FieldPolicy } from '../disclosure.ts';
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

/**
 * The battery pack, version 1.0.0: the EU battery passport's data (Regulation (EU) 2023/1542 Art. 77 and
 * Annex XIII) in the seven clusters of the Battery Pass data model v1.2.0, attributes after DIN DKE SPEC 99100.
 * Our own names and structure; where the value goes in the IDTA-02035 submodels: src/passport/aas/battery/.
 * Documentation, field by field with its access tier: docs/battery-passport.md.
 */

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

export const BATTERY_CATEGORIES = ['lmt', 'ev', 'industrial', 'sli', 'portable'] as const;
export const BATTERY_STATUSES = ['original', 'repurposed', 'reused', 'remanufactured', 'waste'] as const;
export const RECYCLED_MATERIALS = ['cobalt', 'lithium', 'nickel', 'lead'] as const;
export const CELL_COMPONENTS = ['cathode', 'anode', 'electrolyte', 'separator', 'casing', 'other'] as const;

const schema = object('EU battery passport data (battery pack 1.0.0).', {
  generalProductInformation: object(
    'General battery and manufacturer information (Annex VI part A, Annex XIII 1(a)).',
    {
      batteryCategory: oneOf('Battery category (Art. 3).', BATTERY_CATEGORIES),
      manufacturerName: text('Manufacturer’s registered name.'),
      manufacturerIdentifier: text('Manufacturer’s unique operator identifier (EORI, GLN, …).', 100),
      manufacturingFacilityId: text('Unique identifier of the manufacturing facility.', 200),
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

const { public: T1, legitimateInterest: T2, authorities: T3, individual: T4 } = ANNEX_XIII_TIERS;

/** Every field of the model and its Annex XIII tier (test/unit/content-specs: a field without one fails). */
const policy: DisclosurePolicy = {
  '/generalProductInformation/batteryCategory': T1,
  '/generalProductInformation/manufacturerName': T1,
  '/generalProductInformation/manufacturerIdentifier': T1,
  '/generalProductInformation/manufacturingFacilityId': T1,
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

export const BATTERY_1_0_0: ContentSpecification = {
  id: 'urn:dpp-service:spec:battery:1.0.0',
  group: 'battery',
  version: '1.0.0',
  title: 'EU battery passport (Regulation (EU) 2023/1542 Annex XIII; Battery Pass data model 1.2.0 clusters)',
  schema,
  policy,
};
