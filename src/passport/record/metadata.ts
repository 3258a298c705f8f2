import type { MintProduct, NfcProof } from '../../processes/mint.ts';
import { NTAG_424_DNA } from '../../standards/sun/index.ts';

export interface PassportMetadata {
  name: string;
  image: string | null;
  chipUid: string;
  nfcData: NfcProof;
  attributes: { value: string | number | boolean; trait_type: string; display_type?: string }[];
  description: string;
  external_url: string;
  custom_dpp_data: Record<string, unknown>;
}

/** The passport's token metadata (the spec's metadataCache), stored on IPFS and cached on the token row. */
export function buildMetadata(input: {
  product: MintProduct;
  chipUid: string;
  nfc: NfcProof;
  externalUrl: string;
}): PassportMetadata {
  const { product } = input;
  const custom = product.customDppData;
  const attributes: PassportMetadata['attributes'] = [
    { trait_type: 'Passport Generation', value: 'V3' },
    { trait_type: 'Chip', value: NTAG_424_DNA },
  ];
  const add = (trait_type: string, value: unknown, display_type?: string) => {
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') {
      attributes.push(display_type ? { trait_type, value, display_type } : { trait_type, value });
    }
  };
  add('GTIN', product.gtin);
  add('Material', product.material);
  add('Category', custom.category);
  add('HS Code', custom.hsCode);
  add('Origin Country', custom.originCountry);
  add('Manufacturer', custom.manufacturer_name);
  add('Batch', custom.batch_number);
  if (typeof custom.manufacturingDate === 'string') {
    add('Manufacturing Date', Math.floor(Date.parse(custom.manufacturingDate) / 1000), 'date');
  }
  add('SVHC', custom.svhc_exists);
  return {
    name: product.name,
    image: product.image,
    chipUid: input.chipUid,
    nfcData: input.nfc,
    attributes,
    description: product.description,
    external_url: input.externalUrl,
    custom_dpp_data: { ...custom, ...(product.gtin ? { gtin: product.gtin } : {}) },
  };
}
