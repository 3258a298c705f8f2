import { GS1_VOCABULARY, type LinkType } from '../../standards/gs1/link-types.ts';
import { type LevelPassport, levelDigitalLink } from '../levels/levels.ts';
import { dppIdOf } from '../record/passport-header.ts';
import { levelRelations } from './level-relations.ts';
import { IANA_DPP_RELATION, type PassportLink } from './linkset.ts';

/** A model's or batch's verification page (test ones under /test, as their Digital Links). */
export function levelPagePath(level: Pick<LevelPassport, 'environment' | 'gtin' | 'lot'>): string {
  const model = `${level.environment === 'test' ? '/test' : ''}/verify/01/${level.gtin}`;
  return level.lot === null ? model : `${model}/10/${encodeURIComponent(level.lot)}`;
}

/** EN 18222 ReadDPPById of a passport on this service. */
export function dppReadUrl(publicBaseUrl: string, serviceUid: string): string {
  return `${publicBaseUrl}/v1/dpps/${dppIdOf(serviceUid)}`;
}

/**
 * A level's own links, by GS1 link type: its page (pip, default) and its passport (EN 18222 read, public JSON, W3C
 * VC; `gs1:dpp` as a link type answers the first).
 */
export function levelLinks(level: LevelPassport, publicBaseUrl: string, name: string): PassportLink[] {
  const anchor = levelDigitalLink(publicBaseUrl, level);
  const page = `${publicBaseUrl}${levelPagePath(level)}`;
  const html = { type: 'text/html', hreflang: ['en'] };
  const what = level.granularity === 'model' ? 'model passport' : 'batch passport';
  return [
    { linkType: 'pip', href: page, title: `${name}: ${what}`, ...html },
    {
      linkType: 'dpp',
      href: dppReadUrl(publicBaseUrl, level.serviceUid),
      title: `Digital Product Passport (${what}, EN 18222 read)`,
      type: 'application/json',
    },
    {
      linkType: 'dpp',
      href: `${anchor}?format=public`,
      title: `Digital Product Passport (${what}, public JSON-LD view)`,
      type: 'application/json',
    },
    {
      linkType: 'dpp',
      href: `${anchor}?format=vc`,
      title: `Digital Product Passport (${what}, W3C verifiable credential)`,
      type: 'application/ld+json',
    },
    { linkType: 'defaultLink', href: page, title: `${name}: Digital Product Passport`, ...html },
  ];
}

/** RFC 9264 linkset of a model or batch passport in GS1's form (as an item's: linkset.ts). */
export function levelLinksetDocument(
  level: LevelPassport,
  publicBaseUrl: string,
  name: string,
  model: LevelPassport | undefined,
) {
  const entry: Record<string, unknown> = {
    anchor: levelDigitalLink(publicBaseUrl, level),
    itemDescription: name,
  };
  const byType = new Map<LinkType, Omit<PassportLink, 'linkType'>[]>();
  for (const { linkType, ...target } of levelLinks(level, publicBaseUrl, name)) {
    byType.set(linkType, [...(byType.get(linkType) ?? []), target]);
  }
  for (const [linkType, targets] of byType) {
    entry[`${GS1_VOCABULARY}${linkType}`] = targets;
    if (linkType === 'dpp') entry[IANA_DPP_RELATION] = targets;
  }
  Object.assign(entry, levelRelations(model ? [model] : [], publicBaseUrl));
  return { linkset: [entry] };
}
