import { clientHash } from '../../chips/signals/client-hash.ts';
import type { Environment } from '../../platform/config/config.ts';
import { DomainError } from '../../platform/errors.ts';
import { digitalLink } from '../../standards/gs1/digital-link.ts';
import { storedCredentialIfCurrent } from '../credentials/passport-credential.ts';
import { etagOf } from './etag.ts';
import { findPublicFacts, findStoredCredential, type PublicFacts } from './fast-lookups.ts';
import { formatDocument } from './format-document.ts';
import { type ItemKey, namesPassport, passportNotFound } from './item-key.ts';
import { passportLinks, verifyPagePath } from './linkset.ts';
import { findPassport, findPassportWithHistory, type PassportRecord, passportBatch } from './lookup.ts';
import type { PassportAnswer, PassportRequest, RepresentationDeps, RequestSide } from './passport-request.ts';
import { publicDocument } from './public-view.ts';
import { checkPassportTap, reopenedClaim } from './tap.ts';
import { signVerdict } from './tap-verdict.ts';

/**
 * Answers a request for a passport, choosing how to read it. The representations consumers' scans and
 * verifiers ask for most take one statement each: format=public the row's public facts, format=vc while the
 * stored credential is current (nothing it was built from changed) its stored bytes. Everything else loads the
 * passport (for vc with its events and stored credential) and builds the answer. An unknown passport, or one
 * the link's GTIN or batch does not name, throws passport_not_found.
 */
export async function representPassport(
  deps: RepresentationDeps,
  request: PassportRequest,
  side: RequestSide,
): Promise<PassportAnswer> {
  const { ask } = request;
  if (ask.kind === 'format' && ask.format === 'public') return publicFacts(deps, request, side);
  if (ask.kind === 'format' && ask.format === 'vc') {
    const stored = await storedCredential(deps, request, side);
    if (stored) return stored;
  }
  return loaded(deps, request, side);
}

// Raw reads need no unit of work: the fast lookups use the connection of the root entity manager.

/** format=public: the row's public facts, read alone. */
async function publicFacts(
  deps: RepresentationDeps,
  { environment, item }: PassportRequest,
  side: RequestSide,
): Promise<PassportAnswer> {
  const facts = await findPublicFacts(deps.orm.em, environment, item.serial);
  if (!facts || !namesPassport(facts, item)) throw passportNotFound(item);
  side.found(digitalLink(deps.publicBaseUrl, environment, item.gtin, facts.tokenId));
  return renderedPublicDocument(facts, deps.publicBaseUrl, environment);
}

/** The public document of the same facts (a shared read, or a row unchanged since: fast-lookups.ts), written and hashed once. */
const rendered = new WeakMap<PublicFacts, { base: string; document: PassportAnswer }>();

function renderedPublicDocument(facts: PublicFacts, base: string, environment: Environment): PassportAnswer {
  const done = rendered.get(facts);
  if (done?.base === base) return done.document;
  const body = JSON.stringify(publicDocument(facts, base, environment));
  const document: PassportAnswer = { kind: 'document', body, etag: etagOf(body) };
  rendered.set(facts, { base, document });
  return document;
}

/** format=vc as stored, when it is current; undefined when it must be built (and maybe signed) again. */
async function storedCredential(
  deps: RepresentationDeps,
  { environment, item }: PassportRequest,
  side: RequestSide,
): Promise<PassportAnswer | undefined> {
  const stored = await findStoredCredential(deps.orm.em, environment, item.serial);
  if (!stored || !namesPassport(stored, item)) throw passportNotFound(item);
  const credential = await storedCredentialIfCurrent(stored, environment, deps.credentials);
  if (credential === undefined) return undefined;
  side.found(digitalLink(deps.publicBaseUrl, environment, item.gtin, item.serial));
  // The stored bytes' ETag was computed when they were stored: no hashing per request.
  return { kind: 'document', body: credential, etag: stored.etag ?? undefined };
}

/** The passport the Digital Link names, if its GTIN (and batch, when given) match. */
function matches(passport: PassportRecord | undefined, key: ItemKey): passport is PassportRecord {
  return (
    passport !== undefined &&
    namesPassport({ gtin: passport.gtin, batch: passportBatch(passport) ?? null }, key)
  );
}

async function loaded(
  deps: RepresentationDeps,
  { environment, item, ask }: PassportRequest,
  side: RequestSide,
): Promise<PassportAnswer> {
  const em = deps.orm.em.fork();
  const found =
    ask.kind === 'format' && ask.format === 'vc'
      ? await findPassportWithHistory(em, environment, item.serial)
      : {
          passport: await findPassport(em, environment, item.serial),
          events: [],
          stamp: '',
          cached: undefined,
        };
  const passport = found?.passport;
  if (!found || !matches(passport, item)) throw passportNotFound(item);
  side.found(digitalLink(deps.publicBaseUrl, environment, item.gtin, passport.tokenId));
  switch (ask.kind) {
    case 'tap': {
      // A tapped chip's URL: verify the tap, then show the verdict on the verification page.
      const client = clientHash(deps.verdictKey, ask.clientAddress);
      const { verdict, reopenings } = await checkPassportTap(em, deps.secretBox, passport, ask.query, client);
      const token = signVerdict(deps.verdictKey, {
        verdict,
        environment,
        tokenId: passport.tokenId,
        checkedAt: Math.floor(Date.now() / 1000),
        reopened: reopenedClaim(reopenings),
      });
      const page = verifyPagePath(environment, item.gtin, passport.tokenId);
      return { kind: 'redirect', to: 'tap-verdict', location: `${page}?tap=${token}` };
    }
    case 'link': {
      const link =
        ask.linkType &&
        passportLinks(passport, deps.publicBaseUrl).find((candidate) => candidate.linkType === ask.linkType);
      if (!link) {
        throw new DomainError(
          'not_found',
          'link_type_not_found',
          `This item has no link of type ${ask.asked}.`,
        );
      }
      return { kind: 'redirect', to: 'link', location: link.href };
    }
    case 'page':
      return {
        kind: 'redirect',
        to: 'page',
        location: verifyPagePath(environment, item.gtin, passport.tokenId),
      };
    case 'format':
      return formatDocument(deps, side, ask, { ...found, passport });
  }
}
