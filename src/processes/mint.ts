import type { TenantScope } from '../platform/db/tenant-scope.ts';
import type { SunPayload } from '../standards/sun/index.ts';

/** What a brand tells us about the product when minting (both request shapes end up here). */
export interface MintProduct {
  name: string;
  description: string;
  image: string | null;
  gtin: string | null;
  material: string | null;
  productId: string | null;
  customDppData: Record<string, unknown>;
}

/** The tap that authorised the mint, as kept in the metadata (nulls for shape B mints). */
export interface NfcProof {
  cmac: string | null;
  urlPath: string | null;
  piccData: string | null;
}

/** Name of the query that reports a running mint's progress. */
export const MINT_PROGRESS_QUERY = 'mintProgress';

export interface MintInput {
  scope: TenantScope;
  chipUid: string;
  product: MintProduct;
  /**
   * Shape A: the tap to verify. Without one the mint is authorised by the factory toolbox's signature over
   * the twin binding (`toolbox`, from POST /v1/factory/bind shape B) or else by an earlier verified tap.
   */
  sun: SunPayload | null;
  toolbox?: { internalId: string; signature: string };
  nfc: NfcProof;
  /** Who accepts the tap's counter (the workflow id), so a retried verification is not a replay. */
  reference: string;
  /** Shape A for a chip not in the inventory: a genuine tap enrols it (the spec's `(none)` → mint). */
  enrollIfNew?: { productId: string | null };
}

export type MintStep = 'preparing' | 'minting' | 'recording' | 'done';

export interface MintProgress {
  step: MintStep;
  tokenId?: string;
  metadataUrl?: string;
  transactionHash?: string;
  /**
   * Set while the passport is on chain but recording it failed: the workflow keeps retrying (every
   * recordRetryWait: 20 s, 1, 2, 5, then every 10 minutes; or at once on the `retryRecording` signal) until it is recorded.
   */
  attention?: { reason: 'record_failed'; error: string; failedRounds: number };
}

/** Signal an operator sends after fixing what made recording fail, instead of waiting for the next round. */
export const RETRY_RECORDING_SIGNAL = 'retryRecording';

export interface MintResult {
  dbId: number;
  tokenId: string;
  transactionHash: string;
  ipfsUrl: string;
  status: 'ACTIVE';
}

/** The mint workflow: its type name (as the worker registers it) and its signature. */
export const MINT_WORKFLOW = 'mintPassport';
export type MintWorkflow = (input: MintInput) => Promise<MintResult>;
