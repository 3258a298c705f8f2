import type { Environment } from '../../platform/config/config.ts';
import { digitalLink } from '../../standards/gs1/digital-link.ts';
import {
  GS1_LINKSET_CONTEXT,
  GS1_VOCABULARY,
  LINK_TYPES,
  type LinkType,
} from '../../standards/gs1/link-types.ts';
import { type AccessRole, variantUrl } from '../credentials/untp-variants.ts';
import type { LevelPassport } from '../levels/levels.ts';
import type { RelatedPassport } from '../record/passport-document.ts';
import { PAGE_LANGUAGES } from './i18n/languages.ts';
import { levelRelations } from './level-relations.ts';
import { type PassportRecord, passportGtin } from './lookup.ts';

export interface PassportLink {
  linkType: LinkType;
  href: string;
  title: string;
  type?: string;
  hreflang?: string[];
  /** UNTP 0.7.0: the audience of a per-audience variant (UNTP's identity resolver extension of the target). */
  accessRole?: AccessRole[];
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
  // The page speaks each of these (Accept-Language or ?lang=, docs/verification-page.md).
  const html = { type: 'text/html', hreflang: [...PAGE_LANGUAGES] };
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

/**
 * The per-audience UNTP variants of a passport with product-group data (src/passport/credentials/untp-variants.ts):
 * for each audience both secured forms, each target naming its `accessRole`.
 */
export function untpVariantLinks(
  anchor: string,
  audiences: readonly AccessRole[],
): Omit<PassportLink, 'linkType'>[] {
  return audiences.flatMap((accessRole) => [
    {
      href: variantUrl(anchor, accessRole, 'untp'),
      title: `Digital Product Passport (UNTP 0.7.0 credential, ${accessRole} variant)`,
      type: 'application/ld+json',
      accessRole: [accessRole],
    },
    {
      href: variantUrl(anchor, accessRole, 'vc-jwt'),
      title: `Digital Product Passport (UNTP 0.7.0 credential, ${accessRole} variant, VC-JOSE)`,
      type: 'application/vc+jwt',
      accessRole: [accessRole],
    },
  ]);
}

/**
 * Links to the passports of the same product's earlier or later life (a repurposed battery's original and new
 * passport) under the IANA-registered relations `predecessor-version` / `successor-version` (RFC 5829).
 */
export function relatedPassportLinks(
  related: readonly RelatedPassport[],
): Record<string, { href: string; title: string }[]> {
  const links: Record<string, { href: string; title: string }[]> = {};
  for (const link of related) {
    const successor = link.relation.endsWith('As');
    const relation = successor ? 'successor-version' : 'predecessor-version';
    const how = link.relation.startsWith('repurposed') ? 'repurposed' : 'remanufactured';
    const target = {
      href: link.uniqueProductIdentifier,
      title: successor ? `Passport of the ${how} product` : `Passport of the product before it was ${how}`,
    };
    links[relation] = [...(links[relation] ?? []), target];
  }
  return links;
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
export function linksetDocument(
  passport: PassportRecord,
  publicBaseUrl: string,
  withUntp = false,
  extra: {
    variants?: readonly AccessRole[] | undefined;
    related?: readonly RelatedPassport[];
    /** The item's batch and model passports (level-links.ts: `collection`, `https://schema.org/model`). */
    levels?: readonly Pick<LevelPassport, 'environment' | 'gtin' | 'lot' | 'granularity'>[];
  } = {},
) {
  const anchor = digitalLink(publicBaseUrl, passport.environment, passportGtin(passport), passport.tokenId);
  const name =
    typeof passport.metadata.name === 'string' ? passport.metadata.name : `Passport ${passport.tokenId}`;
  const entry: Record<string, unknown> = { anchor, itemDescription: name };
  // A passport with product-group data has one UNTP credential per audience (variants); others one for all.
  const untp = extra.variants ? untpVariantLinks(anchor, extra.variants) : untpLinks(anchor);
  for (const { linkType, ...target } of passportLinks(passport, publicBaseUrl)) {
    const targets = linkType === 'dpp' && withUntp ? [target, ...untp] : [target];
    entry[`${GS1_VOCABULARY}${linkType}`] = targets;
    if (linkType === 'dpp') entry[IANA_DPP_RELATION] = targets;
  }
  Object.assign(entry, relatedPassportLinks(extra.related ?? []));
  Object.assign(entry, levelRelations(extra.levels ?? [], publicBaseUrl));
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
