import { KuboContentStore } from './kubo.ts';
import { type ContentStore, EmbeddedContentStore } from './store.ts';

export interface ContentStoreSettings {
  /** Kubo RPC API (`IPFS_API_URL`); when set, content goes to that node. */
  apiUrl: string | undefined;
  /** Directory of the embedded store (`IPFS_STORE_DIR`), used when there is no Kubo node. */
  storeDir: string;
}

/** The Kubo-backed store when an API URL is configured, otherwise the embedded directory store. */
export function createContentStore(settings: ContentStoreSettings): ContentStore {
  return settings.apiUrl
    ? new KuboContentStore({ apiUrl: settings.apiUrl })
    : new EmbeddedContentStore(settings.storeDir);
}
