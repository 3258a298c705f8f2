import {
  type BatterySubmodel,
  collectionList,
  item,
  prop,
  ref,
  smc,
  submodel,
} from '../../../standards/aas/battery-elements.ts';
import {
  BATTERY_SUBMODEL_SEMANTIC_IDS,
  type BatteryPassportFacts,
  TD,
  TD_101,
} from '../../../standards/aas/battery-semantics.ts';
import type { BatteryData } from '../../content/battery/battery-data.ts';

export function batteryTechnicalData(facts: BatteryPassportFacts, data: BatteryData): BatterySubmodel {
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
