import { ref } from './battery-elements.ts';

/** Concept ids of the IDTA-02035 templates and the IDTA-02023 Carbon Footprint the battery submodels use. */
export const BP_DN = 'urn:samm:io.admin-shell.idta.batterypass.digital_nameplate:1.0.0';
export const TD = 'urn:samm:io.admin-shell.idta.batterypass.technical_data:1.0.0';
export const TD_101 = 'urn:samm:io.admin-shell.idta.batterypass.technical_data:1.0.1';
export const PC = 'urn:samm:io.admin-shell.idta.batterypass.product_condition:1.0.2';
export const CI = 'urn:samm:io.admin-shell.idta.batterypass.circularity:1.0.0';
export const CONTACT = 'urn:samm:io.admin-shell.idta.contact_information:1.0.0';
export const PCF = 'https://admin-shell.io/idta/CarbonFootprint';
export const DOCUMENT_ID = ref(
  'urn:samm:io.admin-shell.idta.handover_documentation:2.0.0#DocumentIdentifier',
);

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
