// The parts of jsonld 9 (no type declarations of its own) that the credential signer uses.
declare module 'jsonld' {
  export interface RemoteDocument {
    contextUrl: string | null;
    documentUrl: string;
    document: unknown;
  }
  export type DocumentLoader = (url: string) => Promise<RemoteDocument>;
  export interface CanonizeOptions {
    algorithm: 'RDFC-1.0';
    format: 'application/n-quads';
    documentLoader: DocumentLoader;
    safe?: boolean;
    base?: string | null;
    /** rdf-canonize's work limit: N-degree hash runs ≤ (look-alike blank nodes) ** maxWorkFactor (default 1). */
    canonizeOptions?: { maxWorkFactor?: number };
  }
  const jsonld: { canonize(input: unknown, options: CanonizeOptions): Promise<string> };
  export default jsonld;
}
