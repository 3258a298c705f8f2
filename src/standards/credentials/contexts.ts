import { readFileSync } from 'node:fs';
import type { DocumentLoader, RemoteDocument } from 'jsonld';

/** The W3C Verifiable Credentials 2.0 context (also defines Data Integrity proofs and BitstringStatusList). */
export const CREDENTIALS_V2_CONTEXT = 'https://www.w3.org/ns/credentials/v2';

/** Where we publish our own context: the passport's terms (dpp:, idpp:). Its content never changes. */
export function dppContextUrl(publicBaseUrl: string): string {
  return `${publicBaseUrl}/contexts/dpp/v1`;
}

export const DPP_CONTEXT_PATH = '/contexts/dpp/v1';

/**
 * The UN Transparency Protocol 0.7.0 context (DigitalProductPassport and the other UNTP credentials). Bundled
 * from the UNTP specification repository's artefacts/contexts/v0.7.0/untp-context.jsonld; never fetched.
 */
export const UNTP_0_7_0_CONTEXT = 'https://vocabulary.uncefact.org/untp/0.7.0/context/';

export const UNTP_DPP_EXTENSION_PATH = '/contexts/untp-dpp/v1';

/** Where we publish the context our UNTP credentials add to UNTP's (see {@link untpExtensionContext}). */
export function untpExtensionContextUrl(publicBaseUrl: string): string {
  return `${publicBaseUrl}${UNTP_DPP_EXTENSION_PATH}`;
}

/** The vocabulary of the EN 18223 passport header as our UNTP credentials state it. */
export function passportHeaderVocabulary(publicBaseUrl: string): string {
  return `${publicBaseUrl}/vocab/dpp-header#`;
}

/**
 * The context our UNTP credentials add after UNTP 0.7.0's: the credential type `DigitalProductPassport` (UNTP's
 * class untp:DigitalProductPassport; the 0.7.0 context we could obtain does not define the term) and the
 * EN 18223 passport header's terms, which the credential carries in `credentialSubject.characteristics` (UNTP's
 * room for product information its schema does not model). Its content depends only on the public base URL.
 */
export function untpExtensionContext(publicBaseUrl: string): Record<string, unknown> {
  const vocab = passportHeaderVocabulary(publicBaseUrl);
  return {
    '@context': {
      '@version': 1.1,
      DigitalProductPassport: 'https://vocabulary.uncefact.org/untp/DigitalProductPassport',
      passportHeader: { '@id': `${vocab}passportHeader`, '@type': '@id' },
      digitalProductPassportId: `${vocab}digitalProductPassportId`,
      uniqueProductIdentifier: `${vocab}uniqueProductIdentifier`,
      granularity: `${vocab}granularity`,
      dppSchemaVersion: `${vocab}dppSchemaVersion`,
      dppStatus: `${vocab}dppStatus`,
      lastUpdated: { '@id': `${vocab}lastUpdated`, '@type': 'http://www.w3.org/2001/XMLSchema#dateTime' },
      economicOperatorId: `${vocab}economicOperatorId`,
      facilityId: `${vocab}facilityId`,
      contentSpecificationIds: { '@id': `${vocab}contentSpecificationIds`, '@container': '@set' },
      retainUntil: { '@id': `${vocab}retainUntil`, '@type': 'http://www.w3.org/2001/XMLSchema#dateTime' },
    },
  };
}

export const UNTP_VARIANTS_CONTEXT_PATH = '/contexts/untp-dpp-variants/v1';

/** Where we publish the context of UNTP per-audience variants (see {@link untpVariantsContext}). */
export function untpVariantsContextUrl(publicBaseUrl: string): string {
  return `${publicBaseUrl}${UNTP_VARIANTS_CONTEXT_PATH}`;
}

/**
 * The context a per-audience variant of a UNTP credential adds (src/passport/credentials/untp-variants.ts): its
 * audience (`accessRole`), where the other audiences' variants are (`otherVariants`), the product-group data cut
 * for the audience (`productGroupData`, a JSON literal: the content specification's own field names) and the
 * public variant's claim stubs. The UNTP 0.7.0 context we bundle defines none of these. Its content depends only
 * on the public base URL.
 */
export function untpVariantsContext(publicBaseUrl: string): Record<string, unknown> {
  const vocab = `${publicBaseUrl}/vocab/untp-variants#`;
  return {
    '@context': {
      '@version': 1.1,
      accessRole: `${vocab}accessRole`,
      otherVariants: { '@id': `${vocab}otherVariants`, '@container': '@set' },
      variantURL: { '@id': `${vocab}variantURL`, '@type': '@id' },
      productGroupData: { '@id': `${vocab}productGroupData`, '@type': '@json' },
      claimStubs: { '@id': `${vocab}claimStubs`, '@container': '@set' },
      ClaimStub: `${vocab}ClaimStub`,
      field: `${vocab}field`,
    },
  };
}

function bundled(file: string): unknown {
  return JSON.parse(readFileSync(new URL(`./contexts/${file}`, import.meta.url), 'utf8'));
}

/** The bundled context documents (copies of the published ones), parsed once. */
export const CONTEXT_DOCUMENTS = {
  credentialsV2: bundled('credentials-v2.jsonld') as Record<string, unknown>,
  dppV1: bundled('dpp-v1.jsonld') as Record<string, unknown>,
  untp070: bundled('untp-0.7.0.jsonld') as Record<string, unknown>,
};

/**
 * The JSON-LD document loader of the signer: only the bundled contexts, never the network (a context fetched
 * at signing time could change what is signed). Anything else is refused.
 */
export function documentLoaderFor(publicBaseUrl: string): DocumentLoader {
  const documents = new Map<string, unknown>([
    [CREDENTIALS_V2_CONTEXT, CONTEXT_DOCUMENTS.credentialsV2],
    [dppContextUrl(publicBaseUrl), CONTEXT_DOCUMENTS.dppV1],
    [UNTP_0_7_0_CONTEXT, CONTEXT_DOCUMENTS.untp070],
    [untpExtensionContextUrl(publicBaseUrl), untpExtensionContext(publicBaseUrl)],
    [untpVariantsContextUrl(publicBaseUrl), untpVariantsContext(publicBaseUrl)],
  ]);
  return async (url: string): Promise<RemoteDocument> => {
    const document = documents.get(url);
    if (document === undefined)
      throw new Error(`JSON-LD document ${url} is not bundled; refusing to fetch it`);
    return { contextUrl: null, documentUrl: url, document };
  };
}
