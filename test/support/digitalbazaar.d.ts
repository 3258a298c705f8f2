// Just enough typing of the independent verifiers the tests use (the packages ship JavaScript only).
declare module '@digitalbazaar/vc' {
  export function verifyCredential(options: {
    credential: unknown;
    suite: unknown;
    documentLoader: (url: string) => Promise<unknown>;
    checkStatus?: (options: unknown) => Promise<{ verified: boolean; status?: boolean; error?: unknown }>;
  }): Promise<{ verified: boolean; error?: unknown; results?: unknown[]; statusResult?: unknown }>;
}
declare module '@digitalbazaar/data-integrity' {
  export class DataIntegrityProof {
    constructor(options: { cryptosuite: unknown; signer?: unknown });
  }
}
declare module '@digitalbazaar/eddsa-rdfc-2022-cryptosuite' {
  export const cryptosuite: unknown;
}
declare module '@digitalbazaar/vc-bitstring-status-list' {
  export function checkStatus(options: {
    credential: unknown;
    documentLoader: (url: string) => Promise<unknown>;
    suite: unknown;
    verifyBitstringStatusListCredential?: boolean;
    verifyMatchingIssuers?: boolean;
  }): Promise<{ verified: boolean; results?: { verified: boolean; status: boolean }[]; error?: Error }>;
  export function decodeList(options: { encodedList: string }): Promise<{
    length: number;
    getStatus(index: number): boolean;
  }>;
}
declare module '@digitalbazaar/credentials-context' {
  export const contexts: Map<string, unknown>;
}
