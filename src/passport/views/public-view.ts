import type { Environment } from '../../platform/config/config.ts';
import { digitalLink } from '../../standards/gs1/digital-link.ts';
import { NTAG_424_DNA } from '../../standards/sun/index.ts';
import { disclosedProductGroupData } from '../disclosure/product-group-view.ts';
import { passportHeader } from '../record/passport-header.ts';
import type { PublicFacts } from './fast-lookups.ts';
import { passportGtin } from './lookup.ts';
import { hardwareStatus, publicStatus } from './status.ts';

/** The public document's JSON-LD context, inline (nothing to fetch): GS1 and schema.org terms, and ours. */
export const PUBLIC_CONTEXT = {
  schema: 'https://schema.org/',
  gs1: 'https://gs1.org/voc/',
  idpp: 'urn:dpp-service:vocab:idpp:',
  name: 'schema:name',
  status: 'idpp:status',
  smartContract: 'idpp:smartContract',
  chipType: 'idpp:chipType',
  verificationCount: 'idpp:verificationCount',
  /** The EN 18223 passport header, as a JSON literal (its member names are EN 18223's, not RDF terms). */
  dppHeader: { '@id': 'idpp:dppHeader', '@type': '@json' },
  /** Product-group data (specification id → data), the public's fields only, as a JSON literal. */
  productGroupData: { '@id': 'idpp:productGroupData', '@type': '@json' },
} as const;

/**
 * format=public: exactly the spec's members, nothing a brand keeps to itself, and the EN 18223 passport header
 * (`dppHeader`, docs/en18223.md); a passport pinned to a product-group model adds `productGroupData`, its
 * data cut to the fields the `public` role reads (docs/disclosure.md): this representation is the public's.
 */
export function publicDocument(passport: PublicFacts, publicBaseUrl: string, environment: Environment) {
  const productGroupData = disclosedProductGroupData(passport.productGroupData, ['public']);
  return {
    '@context': PUBLIC_CONTEXT,
    '@type': 'gs1:Product',
    '@id': digitalLink(publicBaseUrl, environment, passportGtin(passport), passport.tokenId),
    name: passport.name,
    'gs1:gtin': passportGtin(passport),
    'gs1:serialNumber': passport.tokenId,
    status: publicStatus(passport),
    smartContract: passport.contractAddress,
    'idpp:hardware': {
      chipType: NTAG_424_DNA,
      status: hardwareStatus(passport),
      verificationCount: passport.verificationCount,
    },
    dppHeader: passportHeader({ ...passport, environment }, publicBaseUrl),
    ...(Object.keys(productGroupData).length > 0 ? { productGroupData } : {}),
  };
}
