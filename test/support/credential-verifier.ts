import { readFileSync } from 'node:fs';
import { contexts as credentialsContexts } from '@digitalbazaar/credentials-context';
import { DataIntegrityProof } from '@digitalbazaar/data-integrity';
import { cryptosuite } from '@digitalbazaar/eddsa-rdfc-2022-cryptosuite';
import { verifyCredential } from '@digitalbazaar/vc';
import { checkStatus } from '@digitalbazaar/vc-bitstring-status-list';

const MULTIKEY_CONTEXT = 'https://w3id.org/security/multikey/v1';

type Loaded = { contextUrl: null; documentUrl: string; document: unknown };

/**
 * A verifier's JSON-LD document loader that never leaves this machine: the W3C contexts from the verifier
 * library's own package (not our bundled copies), the vectors' example context, UNTP's context, our contexts as our
 * service publishes them, and did:web documents and status lists fetched from the service under test (its
 * PUBLIC_BASE_URL mapped to where it listens). Anything else is refused.
 */
export async function localDocumentLoader(service: { baseUrl: string; publicBaseUrl: string }) {
  const documents = new Map<string, unknown>(credentialsContexts);
  documents.set(
    'https://www.w3.org/ns/credentials/examples/v2',
    JSON.parse(
      readFileSync(
        new URL('../fixtures/vc-di-eddsa/credentials-examples-v2.jsonld', import.meta.url),
        'utf8',
      ),
    ),
  );
  const dppContext = await fetch(`${service.baseUrl}/contexts/dpp/v1`);
  if (!dppContext.ok) throw new Error(`our context: ${dppContext.status}`);
  documents.set(`${service.publicBaseUrl}/contexts/dpp/v1`, await dppContext.json());
  // UNTP 0.7.0's context as UNTP publishes it (a copy: this loader runs offline).
  documents.set(
    'https://vocabulary.uncefact.org/untp/0.7.0/context/',
    JSON.parse(
      readFileSync(
        new URL('../../src/standards/credentials/contexts/untp-0.7.0.jsonld', import.meta.url),
        'utf8',
      ),
    ),
  );
  const fetched: string[] = [];

  const fromService = async (url: string, headers: Record<string, string> = {}) => {
    fetched.push(url);
    const response = await fetch(url.replace(service.publicBaseUrl, service.baseUrl), { headers });
    if (!response.ok) throw new Error(`${url}: ${response.status}`);
    return response.json();
  };
  /** did:web resolution (did:web:host[:path…] → https://host[/path…]/did.json, or /.well-known/did.json). */
  const resolveDid = async (did: string) => {
    const [, , host = '', ...path] = did.split(':');
    const origin = `http://${decodeURIComponent(host)}`;
    const url =
      path.length > 0
        ? `${origin}/${path.map(decodeURIComponent).join('/')}/did.json`
        : `${origin}/.well-known/did.json`;
    if (!service.publicBaseUrl.startsWith(origin)) throw new Error(`${did} is not the service's DID`);
    return (await fromService(url)) as { id: string; verificationMethod: { id: string }[] };
  };

  const documentLoader = async (url: string): Promise<Loaded> => {
    const loaded = (document: unknown): Loaded => ({ contextUrl: null, documentUrl: url, document });
    if (documents.has(url)) return loaded(documents.get(url));
    if (url.startsWith('did:web:')) {
      const [did = '', fragment] = url.split('#');
      const document = await resolveDid(did);
      if (document.id !== did) throw new Error(`DID document id ${document.id} is not ${did}`);
      if (fragment === undefined) return loaded(document);
      const method = document.verificationMethod.find((vm) => vm.id === url);
      if (!method) throw new Error(`${url} is not in the DID document`);
      return loaded({ '@context': MULTIKEY_CONTEXT, ...method });
    }
    if (url.startsWith(`${service.publicBaseUrl}/credentials/status/`)) return loaded(await fromService(url));
    if (url.startsWith(`${service.publicBaseUrl}/contexts/`)) return loaded(await fromService(url));
    throw new Error(`refusing to load ${url}`);
  };
  return { documentLoader, fetched };
}

export function eddsaRdfc2022Suite() {
  return new DataIntegrityProof({ cryptosuite });
}

/** @digitalbazaar/vc's verifier with the eddsa-rdfc-2022 suite; the status list is fetched and verified too. */
export async function verifyWithDigitalBazaar(
  credential: unknown,
  documentLoader: (url: string) => Promise<unknown>,
) {
  const suite = eddsaRdfc2022Suite();
  return verifyCredential({
    credential,
    suite,
    documentLoader,
    checkStatus: (options) =>
      checkStatus({ ...(options as object), credential, documentLoader, suite } as never),
  });
}

/** The credential's revocation bit, read from its (verified) status list credential. */
export async function revocationBit(credential: unknown, documentLoader: (url: string) => Promise<unknown>) {
  const result = await checkStatus({ credential, documentLoader, suite: eddsaRdfc2022Suite() });
  if (!result.verified) throw result.error ?? new Error('status list not verified');
  return result.results?.[0]?.status;
}
