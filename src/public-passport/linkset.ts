import type { Environment } from '../config/config.ts';
import { digitalLink } from '../gs1/digital-link.ts';
import { GS1_LINKSET_CONTEXT, GS1_VOCABULARY, LINK_TYPES, type LinkType } from '../gs1/link-types.ts';
import { type PassportRecord, passportGtin } from './lookup.ts';

export interface PassportLink {
  linkType: LinkType;
  href: string;
  title: string;
  type?: string;
  hreflang?: string[];
}

/** The consumer verification page of a passport (test passports' under /test, as their Digital Links). */
export function verifyPagePath(environment: Environment, gtin: string, tokenId: string): string {
  return `${environment === 'test' ? '/test' : ''}/verify/01/${gtin}/21/${encodeURIComponent(tokenId)}`;
}

/** Every link a passport has, one per link type (certificationInfo only with a declaration of conformity). */
export function passportLinks(passport: PassportRecord, publicBaseUrl: string): PassportLink[] {
  const gtin = passportGtin(passport);
  const anchor = digitalLink(publicBaseUrl, passport.environment, gtin, passport.tokenId);
  const page = `${publicBaseUrl}${verifyPagePath(passport.environment, gtin, passport.tokenId)}`;
  const name =
    typeof passport.metadata.name === 'string' ? passport.metadata.name : `Passport ${passport.tokenId}`;
  const conformity = passport.metadata.custom_dpp_data?.conformity_url;
  const html = { type: 'text/html', hreflang: ['en'] };
  const links: PassportLink[] = [
    { linkType: 'pip', href: page, title: `${name}: product information and authenticity`, ...html },
    { linkType: 'verificationService', href: page, title: 'Verify the product’s NFC tag', ...html },
    {
      linkType: 'dpp',
      href: `${anchor}?format=vc`,
      title: 'Digital Product Passport (W3C verifiable credential)',
      type: 'application/ld+json',
    },
    {
      linkType: 'sustainabilityInfo',
      href: `${anchor}?format=aas`,
      title: 'Sustainability data (asset administration shell)',
      type: 'application/json',
    },
    {
      linkType: 'recyclingInfo',
      href: `${page}#recycling`,
      title: 'Recycling and circular deposit',
      ...html,
    },
  ];
  if (typeof conformity === 'string' && /^https?:\/\//.test(conformity)) {
    links.push({ linkType: 'certificationInfo', href: conformity, title: 'EU declaration of conformity' });
  }
  links.push({ linkType: 'defaultLink', href: page, title: `${name}: Digital Product Passport`, ...html });
  return links;
}

/**
 * The passport's other passport forms: the UNTP 0.7.0 credential (Data Integrity proof) and the same credential
 * secured with VC-JOSE, when the passport has what UNTP requires.
 */
export function untpLinks(anchor: string): Omit<PassportLink, 'linkType'>[] {
  return [
    {
      href: `${anchor}?format=untp`,
      title: 'Digital Product Passport (UNTP 0.7.0 credential)',
      type: 'application/ld+json',
    },
    {
      href: `${anchor}?format=vc-jwt`,
      title: 'Digital Product Passport (UNTP 0.7.0 credential secured with VC-JOSE)',
      type: 'application/vc+jwt',
    },
  ];
}

/** The IANA-registered `dpp` link relation (RFC 8288 registered relations are written by their bare name). */
export const IANA_DPP_RELATION = 'dpp';

/**
 * RFC 9264 linkset in GS1's form: one context object whose anchor is the passport's Digital Link, its
 * `itemDescription`, and per link type the full GS1 vocabulary IRI as relation with `href`, `title`, and where
 * known `type` and `hreflang`. The passport's forms are listed under `gs1:dpp` and under the IANA-registered
 * `dpp` relation alike: the seed's credential first (what `linkType=gs1:dpp` redirects to), then the UNTP
 * credential and its VC-JOSE form when `withUntp`.
 */
export function linksetDocument(passport: PassportRecord, publicBaseUrl: string, withUntp = false) {
  const anchor = digitalLink(publicBaseUrl, passport.environment, passportGtin(passport), passport.tokenId);
  const name =
    typeof passport.metadata.name === 'string' ? passport.metadata.name : `Passport ${passport.tokenId}`;
  const entry: Record<string, unknown> = { anchor, itemDescription: name };
  for (const { linkType, ...target } of passportLinks(passport, publicBaseUrl)) {
    const targets = linkType === 'dpp' && withUntp ? [target, ...untpLinks(anchor)] : [target];
    entry[`${GS1_VOCABULARY}${linkType}`] = targets;
    if (linkType === 'dpp') entry[IANA_DPP_RELATION] = targets;
  }
  return { linkset: [entry] };
}

/** `Link` header every resolver answer carries: where the linkset of this Digital Link is. */
export function linksetLinkHeader(anchor: string): string {
  return `<${anchor}?linkType=linkset>; rel="linkset"; type="application/linkset+json"`;
}

/** `Link` header of a linkset answer: GS1's JSON-LD context for linksets. */
export const LINKSET_CONTEXT_LINK = `<${GS1_LINKSET_CONTEXT}>; rel="http://www.w3.org/ns/json-ld#context"; type="application/ld+json"`;

/** `/.well-known/gs1resolver`: the resolver description file (GS1 Digital Link resolver standard). */
export function resolverDescription(publicBaseUrl: string) {
  return {
    name: 'Digital Product Passport resolver',
    resolverRoot: publicBaseUrl,
    supportedPrimaryKeys: ['01'],
    supportedLinkType: [{ namespace: GS1_VOCABULARY, prefix: 'gs1:' }],
    linkTypes: LINK_TYPES.map((linkType) => `gs1:${linkType}`),
    linkTypeDefaultCanBeLinkset: false,
    jsonLdContextLocation: GS1_LINKSET_CONTEXT,
  };
}
