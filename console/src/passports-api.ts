import { ApiError, call, type Environment } from './api.ts';

/** The console's calls for Passports (GET /v1/dpp/passports…, mint status, revoke). */

export type PassportStatus = 'ACTIVE' | 'REVOKED' | 'RECYCLED';

export interface PassportSummary {
  tokenId: string;
  chipUid: string;
  name: string | null;
  gtin: string | null;
  batch: string | null;
  productId: string | null;
  status: string;
  mintedAt: string;
  transactionHash: string;
}

/** A search row: also where its mint transaction can be seen (null without a configured explorer). */
export interface PassportRow extends PassportSummary {
  transactionUrl: string | null;
}

export interface TimelineEntry {
  kind: 'minted' | 'event' | 'revoked';
  action: string;
  at: string;
  locationName: string | null;
  transactionHash: string | null;
  blockNumber: number | null;
  reason: string | null;
}

export interface OwnerWallet {
  address: string;
  kind: 'company-custody' | 'smart-account' | 'personal-wallet' | 'other';
  /** A smart account: created on chain yet; null for the other kinds. */
  deployed: boolean | null;
}

export interface PassportDetails extends PassportSummary {
  /** Its EN 18222 id: its document, product data and completeness (/v1/dpps/{id}…). */
  digitalProductPassportId: string;
  material: string | null;
  manufacturer: string | null;
  revokedAt: string | null;
  revocationReason: string | null;
  ownerWallet: string;
  /** Who holds it: the company's custody wallet, a buyer's smart account (created on chain yet?), … */
  owner: OwnerWallet;
  contractAddress: string;
  transactionHash: string;
  mintBlock: number;
  metadataUrl: string;
  taps: { count: number; lastAt: string | null };
  timeline: TimelineEntry[];
  links: { publicPage: string; digitalLink: string; credential: string };
}

export interface MintStatus {
  workflowId: string;
  status: 'RUNNING' | 'COMPLETED' | 'FAILED';
  progress?: {
    step: 'preparing' | 'minting' | 'recording' | 'done';
    tokenId?: string;
    transactionHash?: string;
    attention?: { reason: string; error: string; failedRounds: number };
  };
  result?: { blockchain: { tokenId: string; transactionHash: string } };
  error?: { code: string; message: string };
}

export interface RunningMint {
  chipUid: string;
  workflowId: string;
  startedAt: string;
  attention: string | null;
}

/** What the search form sends: only the fields filled in. */
export interface PassportQuery {
  q?: string;
  chipUid?: string;
  tokenId?: string;
  gtin?: string;
  batch?: string;
  status?: PassportStatus;
}

export const PAGE_SIZE = 25;

export const passports = {
  search: (env: Environment, query: PassportQuery, after: string | null) => {
    const params = new URLSearchParams(query as Record<string, string>);
    params.set('limit', String(PAGE_SIZE));
    if (after) params.set('after', after);
    return call<{ passports: PassportRow[]; nextCursor: string | null }>(
      env,
      'GET',
      `/v1/dpp/passports?${params}`,
    );
  },
  get: (env: Environment, tokenId: string) =>
    call<{ passport: PassportDetails }>(env, 'GET', `/v1/dpp/passports/${encodeURIComponent(tokenId)}`),
  revoke: (env: Environment, tokenId: string, reason: string) =>
    call<{ revokedAt: string; alreadyRevoked: boolean }>(env, 'POST', '/v1/dpp/revoke', { tokenId, reason }),
  running: (env: Environment) => call<{ mints: RunningMint[]; more: boolean }>(env, 'GET', '/v1/dpp/mints'),
  mintStatus: (env: Environment, chipUid: string) =>
    call<MintStatus>(env, 'GET', `/v1/dpp/mint/${encodeURIComponent(chipUid)}`),
};

export interface ImportJob {
  id: string;
  state: 'checking' | 'writing' | 'done' | 'refused' | 'failed';
  total: number;
  processed: number;
  written: number;
  alreadyImported: boolean;
  errors: { row: number; column: string; message: string }[];
}

export const imports = {
  start: (env: Environment, fileName: string, content: string) =>
    call<{ job: ImportJob }>(env, 'POST', '/v1/erp/provision/imports', { fileName, content }),
  get: (env: Environment, id: string) =>
    call<{ job: ImportJob }>(env, 'GET', `/v1/erp/provision/imports/${encodeURIComponent(id)}`),
};

/** A passport's registration in the EU DPP registry (GET /v1/dpps/{id}/registration, docs/registry.md). */
export interface Registration {
  state: 'pending' | 'registered' | 'refused';
  registryId: string | null;
  uniqueProductIdentifier: string | null;
  registeredAt: string | null;
  refusal: { reason: string; fields: { path: string; message: string }[]; refusedAt: string } | null;
  pendingVersions: number;
  lastRegisteredVersion: { number: number; sha256: string } | null;
}

/** Where a passport's versions stand at the backup provider (GET /v1/dpps/{id}/backup, docs/backup.md). */
export interface BackupStatus {
  provider: 'configured' | 'not_configured';
  backupLink: string | null;
  state: 'acknowledged' | 'pending' | 'attention' | 'not_configured';
  latestAcknowledgedVersion: number | null;
  versions: {
    number: number;
    status: 'pending' | 'acknowledged' | 'refused';
    attempts: number;
    acknowledgedAt: string | null;
    lastError: string | null;
  }[];
}

const dppPath = (dppId: string) => `/v1/dpps/${encodeURIComponent(dppId)}`;

/** The records kept about any passport (item, batch or model): registry, backup, evidence. */
export const records = {
  /** null: no registration yet (the passport has no version yet). */
  registration: async (env: Environment, dppId: string): Promise<Registration | null> => {
    try {
      return await call<Registration>(env, 'GET', `${dppPath(dppId)}/registration`);
    } catch (caught) {
      if (caught instanceof ApiError && caught.code === 'registration_not_found') return null;
      throw caught;
    }
  },
  retryRegistration: (env: Environment, dppId: string) =>
    call<Registration>(env, 'POST', `${dppPath(dppId)}/registration/retry`),
  backup: (env: Environment, dppId: string) => call<BackupStatus>(env, 'GET', `${dppPath(dppId)}/backup`),
  /** The evidence bundle as a file (the API needs the environment header, so no plain link can fetch it). */
  evidence: async (env: Environment, dppId: string): Promise<Blob> => {
    const bundle = await call<unknown>(env, 'GET', `${dppPath(dppId)}/evidence`);
    return new Blob([JSON.stringify(bundle, null, 2)], { type: 'application/json' });
  },
};
