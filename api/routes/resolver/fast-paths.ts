import { storedCredentialIfCurrent } from '../../../src/passport/credentials/passport-credential.ts';
import { findPublicFacts, findStoredCredential } from '../../../src/passport/views/fast-lookups.ts';
import { linksetLinkHeader } from '../../../src/passport/views/linkset.ts';
import { publicDocument } from '../../../src/passport/views/public-view.ts';
import type { Environment } from '../../../src/platform/config/config.ts';
import { digitalLink } from '../../../src/standards/gs1/digital-link.ts';
import type { AppContext } from '../../context.ts';
import { etagOf, PUBLIC_CACHE, sendText } from './http.ts';
import { type ItemKey, namesPassport, passportNotFound } from './item-key.ts';
import type { PublicPassportDeps } from './public-passport-deps.ts';

// The representations consumers' scans and verifiers ask for most, each one statement. Raw reads need no
// unit of work: they use the connection of the root entity manager.

/** format=public: the row's public facts, read alone. */
export async function sendPublic(
  ctx: AppContext,
  deps: PublicPassportDeps,
  key: ItemKey,
  environment: Environment,
  contentType: string,
): Promise<void> {
  const facts = await findPublicFacts(deps.orm.em, environment, key.serial);
  if (!facts || !namesPassport(facts, key)) throw passportNotFound(key);
  const base = deps.config.publicBaseUrl;
  ctx.append('Link', linksetLinkHeader(digitalLink(base, environment, key.gtin, facts.tokenId)));
  sendText(ctx, JSON.stringify(publicDocument(facts, base, environment)), contentType);
}

/**
 * format=vc when the stored credential is current (nothing it was built from changed): served as stored.
 * False when it must be built (and, if its content changed, signed) again.
 */
export async function sendStoredCredential(
  ctx: AppContext,
  deps: PublicPassportDeps,
  key: ItemKey,
  environment: Environment,
  contentType: string,
): Promise<boolean> {
  const stored = await findStoredCredential(deps.orm.em, environment, key.serial);
  if (!stored || !namesPassport(stored, key)) throw passportNotFound(key);
  const credential = await storedCredentialIfCurrent(stored, environment, deps.credentials);
  if (credential === undefined) return false;
  ctx.append(
    'Link',
    linksetLinkHeader(digitalLink(deps.config.publicBaseUrl, environment, key.gtin, key.serial)),
  );
  // The stored bytes' ETag was computed when they were stored: no hashing per request.
  sendText(ctx, credential, contentType, PUBLIC_CACHE, stored.etag ?? etagOf(credential));
  return true;
}
