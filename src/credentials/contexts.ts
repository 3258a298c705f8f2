import { readFileSync } from 'node:fs';
import type { DocumentLoader, RemoteDocument } from 'jsonld';

/** The W3C Verifiable Credentials 2.0 context (also defines Data Integrity proofs and BitstringStatusList). */
export const CREDENTIALS_V2_CONTEXT = 'https://www.w3.org/ns/credentials/v2';

/** Where we publish our own context: the passport's terms (dpp:, idpp:). Its content never changes. */
export function dppContextUrl(publicBaseUrl: string): string {
  return `${publicBaseUrl}/contexts/dpp/v1`;
}

export const DPP_CONTEXT_PATH = '/contexts/dpp/v1';

function bundled(file: string): unknown {
  return JSON.parse(readFileSync(new URL(`./contexts/${file}`, import.meta.url), 'utf8'));
}

/** The bundled context documents (copies of the published ones), parsed once. */
export const CONTEXT_DOCUMENTS = {
  credentialsV2: bundled('credentials-v2.jsonld') as Record<string, unknown>,
  dppV1: bundled('dpp-v1.jsonld') as Record<string, unknown>,
};

/**
 * The JSON-LD document loader of the signer: only the bundled contexts, never the network (a context fetched
 * at signing time could change what is signed). Anything else is refused.
 */
export function documentLoaderFor(publicBaseUrl: string): DocumentLoader {
  const documents = new Map<string, unknown>([
    [CREDENTIALS_V2_CONTEXT, CONTEXT_DOCUMENTS.credentialsV2],
    [dppContextUrl(publicBaseUrl), CONTEXT_DOCUMENTS.dppV1],
  ]);
  return async (url: string): Promise<RemoteDocument> => {
    const document = documents.get(url);
    if (document === undefined)
      throw new Error(`JSON-LD document ${url} is not bundled; refusing to fetch it`);
    return { contextUrl: null, documentUrl: url, document };
  };
}
