import type { EntityManager } from '@mikro-orm/postgresql';
import type { Environment } from '../../platform/config/config.ts';
import { DomainError } from '../../platform/errors.ts';
import { findLevelByKey, type LevelPassport, levelDigitalLink } from '../levels/levels.ts';
import { levelLinks, levelLinksetDocument, levelPagePath } from './level-links.ts';
import { publicLevel, publicLevelDocument } from './level-view.ts';
import type {
  PassportAnswer,
  PassportAsk,
  PassportFormat,
  RepresentationDeps,
  RequestSide,
} from './passport-request.ts';

/** The formats a model or batch passport is served in; the others describe one item (a chip, a credential). */
export const LEVEL_FORMATS: readonly PassportFormat[] = ['public', 'linkset'];

/** The model passport a batch belongs to: the same company's model of its GTIN, if any. */
export async function modelOfBatch(
  em: EntityManager,
  level: LevelPassport,
): Promise<LevelPassport | undefined> {
  if (level.granularity !== 'batch') return undefined;
  const model = await findLevelByKey(em, level.environment, level.gtin, null);
  return model?.companyId === level.companyId ? model : undefined;
}

/**
 * Answers a resolver request for a model or batch passport (docs/public-passport.md "Model and batch
 * addresses"): the default (and a tap: a level has no chip to check) → its page; a link type → that link (404
 * link_type_not_found); format=public and linkset → the level's; any other format → 400 format_not_available.
 */
export async function representLevel(
  deps: RepresentationDeps,
  request: { environment: Environment; level: LevelPassport; ask: PassportAsk },
  side: RequestSide,
): Promise<PassportAnswer> {
  const { level, ask } = request;
  const base = deps.publicBaseUrl;
  side.found(levelDigitalLink(base, level));
  if (ask.kind === 'page' || ask.kind === 'tap') {
    return { kind: 'redirect', to: 'page', location: levelPagePath(level) };
  }
  if (ask.kind === 'format' && !LEVEL_FORMATS.includes(ask.format)) {
    throw new DomainError(
      'invalid',
      'format_not_available',
      `format=${ask.format} describes one item; a ${level.granularity} passport is served as ` +
        `${LEVEL_FORMATS.map((format) => `format=${format}`).join(' or ')} (and its page without a format).`,
    );
  }
  const em = deps.orm.em.fork();
  const view = await publicLevel(em, level);
  if (ask.kind === 'link') {
    const link = ask.linkType && levelLinks(level, base, view.name).find((l) => l.linkType === ask.linkType);
    if (!link) {
      throw new DomainError(
        'not_found',
        'link_type_not_found',
        `This ${level.granularity} passport has no link of type ${ask.asked}.`,
      );
    }
    return { kind: 'redirect', to: 'link', location: link.href };
  }
  const model = await modelOfBatch(em, level);
  const document =
    ask.format === 'linkset'
      ? levelLinksetDocument(level, base, view.name, model)
      : publicLevelDocument(view, base, model);
  return { kind: 'document', body: JSON.stringify(document) };
}
