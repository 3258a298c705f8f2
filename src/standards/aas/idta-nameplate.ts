import { type AasV3Submodel, collection, englishText, property } from './elements.ts';
import { globalReference } from './semantics.ts';

/**
 * IDTA-02006-3-0 Digital Nameplate for industrial equipment, version 3.0: the concept ids its template
 * (3.0.2) gives each element (IEC CDD; the ECLASS ids are the template's supplemental ids).
 */
export const NAMEPLATE_3 = {
  submodel: 'https://admin-shell.io/idta/nameplate/3/0/Nameplate',
  uriOfTheProduct: '0112/2///61987#ABN590#002',
  manufacturerName: '0112/2///61987#ABA565#009',
  manufacturerProductDesignation: '0112/2///61987#ABA567#009',
  addressInformation: 'https://admin-shell.io/zvei/nameplate/1/0/ContactInformations/AddressInformation',
  company: '0173-1#02-AAW001#001',
  orderCodeOfManufacturer: '0112/2///61987#ABA950#008',
  productArticleNumberOfManufacturer: '0112/2///61987#ABA581#007',
  serialNumber: '0112/2///61987#ABA951#009',
  yearOfConstruction: '0112/2///61987#ABP000#002',
  dateOfManufacture: '0112/2///61987#ABB757#007',
  countryOfOrigin: '0112/2///61987#ABP462#001',
} as const;

/** What the nameplate reads of a passport (all of it public). */
export interface NameplateFacts {
  /** The product's GS1 Digital Link (URIOfTheProduct). */
  digitalLink: string;
  /** custom_dpp_data.manufacturer_name, else the company's name. */
  manufacturerName: string;
  /** The product's name (metadata name), else its product id, else its GTIN. */
  productDesignation: string;
  /** The brand's product id, else the GTIN (OrderCodeOfManufacturer, mandatory). */
  orderCode: string;
  gtin: string | null;
  /** The token id: the item's serial in its Digital Link (AI 21); a model or batch has none. */
  serialNumber?: string | undefined;
  /**
   * When the passport was minted: the item is taken as manufactured then (no other date is recorded); a model
   * has no date of manufacture, a batch the one its data states.
   */
  mintedAt?: Date | undefined;
  countryOfOrigin: string | undefined;
}

/**
 * The passport's Digital Nameplate 3.0 submodel: every element the template marks mandatory (URIOfTheProduct,
 * ManufacturerName, ManufacturerProductDesignation, AddressInformation, OrderCodeOfManufacturer) and the
 * optional ones we know (serial, GTIN as article number, YearOfConstruction and DateOfManufacture from the
 * mint, country of origin).
 */
export function nameplateSubmodel(shellId: string, facts: NameplateFacts): AasV3Submodel {
  const n = NAMEPLATE_3;
  const date = facts.mintedAt?.toISOString();
  return {
    modelType: 'Submodel',
    id: `${shellId}/submodels/Nameplate`,
    idShort: 'Nameplate',
    kind: 'Instance',
    semanticId: globalReference(n.submodel),
    submodelElements: [
      ...property('URIOfTheProduct', n.uriOfTheProduct, 'xs:anyURI', facts.digitalLink),
      ...englishText('ManufacturerName', n.manufacturerName, facts.manufacturerName),
      ...englishText(
        'ManufacturerProductDesignation',
        n.manufacturerProductDesignation,
        facts.productDesignation,
      ),
      collection('AddressInformation', n.addressInformation, [
        ...englishText('Company', n.company, facts.manufacturerName),
      ]),
      ...property('OrderCodeOfManufacturer', n.orderCodeOfManufacturer, 'xs:string', facts.orderCode),
      ...property(
        'ProductArticleNumberOfManufacturer',
        n.productArticleNumberOfManufacturer,
        'xs:string',
        facts.gtin,
      ),
      ...property('SerialNumber', n.serialNumber, 'xs:string', facts.serialNumber),
      ...property('YearOfConstruction', n.yearOfConstruction, 'xs:string', date?.slice(0, 4)),
      ...property('DateOfManufacture', n.dateOfManufacture, 'xs:date', date?.slice(0, 10)),
      ...property('CountryOfOrigin', n.countryOfOrigin, 'xs:string', facts.countryOfOrigin),
    ],
  };
}
