import type { Environment } from '../../platform/config/config.ts';

/** What a key's row says, as authentication needs it. */
export interface RecentKey {
  id: string;
  companyId: string;
  environment: Environment;
  secretHash: string;
}

/** How long a key that authenticated is believed without reading its row again. */
export const RECENT_KEY_MS = 2_000;
const MAX_KEPT = 10_000;

/**
 * Keys that authenticated in the last RECENT_KEY_MS on this process, by lookup id, so that a burst of calls with
 * one key reads `api_keys` once instead of once per call. A revocation forgets the key here at once; another API
 * process believes it for at most RECENT_KEY_MS more (docs/api-keys.md). The presented secret is still compared
 * with the stored hash on every call.
 */
class RecentKeys {
  readonly #kept = new Map<string, { key: RecentKey; until: number }>();

  get(lookupId: string, now = Date.now()): RecentKey | undefined {
    const entry = this.#kept.get(lookupId);
    if (!entry) return undefined;
    if (entry.until <= now) {
      this.#kept.delete(lookupId);
      return undefined;
    }
    return entry.key;
  }

  keep(lookupId: string, key: RecentKey, now = Date.now()): void {
    if (this.#kept.size >= MAX_KEPT) this.#kept.clear();
    this.#kept.set(lookupId, { key, until: now + RECENT_KEY_MS });
  }

  forget(lookupId: string): void {
    this.#kept.delete(lookupId);
  }
}

export const recentKeys = new RecentKeys();
