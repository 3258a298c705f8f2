import type { Environment } from '../../platform/config/config.ts';
import { digitalLink } from '../../standards/gs1/digital-link.ts';
import { NTAG_424_DNA } from '../../standards/sun/index.ts';
import { sourcesOf } from '../content/merge-layers.ts';
import { disclosedProductGroupData } from '../disclosure/product-group-view.ts';
import { mergedProductGroupData } from '../levels/item-levels.ts';
import { dppIdOf, passportHeader } from '../record/passport-header.ts';
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
  /** Where each product-group value comes from (RFC 6901 pointer → dppId), as a JSON literal. */
  contentSources: { '@id': 'idpp:contentSources', '@type': '@json' },
} as const;

/**
 * format=public: exactly the spec's members, nothing a brand keeps to itself, and the EN 18223 passport header
 * (`dppHeader`, docs/en18223.md); a passport pinned to a product-group model adds `productGroupData`, its
 * data cut to the fields the `public` role reads (docs/disclosure.md): this representation is the public's.
 * An item under a model or batch passport shows its data merged over theirs, cut after the merge, with
 * `contentSources` (pointer into `productGroupData` → the dppId each value comes from) and the header's links
 * (docs/granularity.md).
 */
export function publicDocument(passport: PublicFacts, publicBaseUrl: string, environment: Environment) {
  const merged = mergedProductGroupData(
    dppIdOf(passport.serviceUid),
    passport.productGroupData,
    passport.levels,
  );
  const productGroupData = disclosedProductGroupData(merged.entries, ['public']);
  const shown = Object.keys(productGroupData).length > 0;
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
    // Its contentSpecificationIds list the sections it inherits too, as its EN 18222 document's do.
    dppHeader: passportHeader(
      {
        ...passport,
        environment,
        productGroupSpecificationIds: merged.entries.map((entry) => entry.specificationId),
      },
      publicBaseUrl,
    ),
    ...(shown ? { productGroupData } : {}),
    ...(shown && merged.sources ? { contentSources: sourcesOf(productGroupData, merged.sources) } : {}),
  };
}
