import {
  type BatterySubmodel,
  collectionList,
  type Element,
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
  DOCUMENT_ID,
  PC,
} from '../../../standards/aas/battery-semantics.ts';
import type { BatteryData } from '../../content/battery/battery-data.ts';

export function batteryProductCondition(facts: BatteryPassportFacts, data: BatteryData): BatterySubmodel {
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
