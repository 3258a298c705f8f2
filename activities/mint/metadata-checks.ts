import { ApplicationFailure } from '@temporalio/activity';
import type { ContentStore } from '../../src/adapters/ipfs/store.ts';
import { ESPR_CONFORMITY_MESSAGE, hasConformity } from '../../src/lifecycle/mint/mint-request.ts';
import type { PassportMetadata } from '../../src/passport/record/metadata.ts';
import { findUnstorableText } from '../../src/platform/storable-text.ts';
import type { MintProduct } from '../../src/processes/mint.ts';
import { parseIpfsUrl } from '../../src/standards/ipfs/json.ts';

/**
 * Refuses, before anything irreversible, a product whose passport could not be recorded afterwards (text
 * PostgreSQL cannot store). The API refuses such input already; this guards every other way into a mint.
 */
export function assertRecordable(product: MintProduct): void {
  const found = findUnstorableText(product);
  if (!found) return;
  throw ApplicationFailure.create({
    message: `The product's ${found.path.join('.')} cannot be stored (${found.reason.replace('_', ' ')}).`,
    type: 'InvalidMintData',
    nonRetryable: true,
  });
}

/**
 * Refuses, before a new token is minted, a product without a declaration of conformity (the spec's state
 * table: mint needs conformity_url). The API refuses such requests already (400 conformity_required); this
 * guards every other way into a mint. A token a former run put on chain is adopted, not checked again.
 */
export function assertConformity(product: MintProduct): void {
  if (hasConformity(product)) return;
  throw ApplicationFailure.create({
    message: ESPR_CONFORMITY_MESSAGE,
    type: 'ConformityRequired',
    nonRetryable: true,
  });
}

/** The metadata document an `ipfs://` token URI names, from our content store. */
export async function loadMetadata(store: ContentStore, metadataUrl: string): Promise<PassportMetadata> {
  const cid = parseIpfsUrl(metadataUrl);
  const stored = cid ? await store.get(cid) : undefined;
  if (!stored) {
    // Retryable: the store may be catching up (a Kubo node), and an operator can put the document back.
    throw new Error(`The metadata of the token on chain (${metadataUrl}) is not in the content store.`);
  }
  return JSON.parse(stored.bytes.toString('utf8')) as PassportMetadata;
}
