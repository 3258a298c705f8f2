import { call, type Environment } from './api.ts';

/** The console's calls for model and batch passports (docs/granularity.md): the list, and a level's versions. */

export type LevelGranularity = 'model' | 'batch';

export interface LevelRow {
  digitalProductPassportId: string;
  granularity: LevelGranularity;
  gtin: string;
  lot: string | null;
  dppStatus: string;
  uniqueProductIdentifier: string;
  createdAt: string;
  updatedAt: string;
}

export interface VersionSummary {
  number: number;
  createdAt: string;
  sha256?: string;
  anchorStatus?: 'pending' | 'anchored';
  anchor?: { transactionHash: string; blockNumber: number };
}

export const LEVEL_PAGE_SIZE = 25;

export const levels = {
  list: (env: Environment, granularity: LevelGranularity, after: string | null) => {
    const params = new URLSearchParams({ granularity, limit: String(LEVEL_PAGE_SIZE) });
    if (after) params.set('after', after);
    return call<{ levels: LevelRow[]; nextCursor: string | null }>(env, 'GET', `/v1/dpp/levels?${params}`);
  },
  versions: (env: Environment, dppId: string) =>
    call<{ items: VersionSummary[]; nextCursor: string | null }>(
      env,
      'GET',
      `/v1/dpps/${encodeURIComponent(dppId)}/versions?limit=100`,
    ),
};

/** How a person names a level: "Model 09506000134352" or "Batch LOT-7 of 09506000134352". */
export const levelName = (level: { granularity: LevelGranularity; gtin: string; lot: string | null }) =>
  level.granularity === 'model' ? `Model ${level.gtin}` : `Batch ${level.lot} of ${level.gtin}`;

/** A level's console page. */
export const levelPath = (dppId: string) => `/levels/${encodeURIComponent(dppId)}`;
