import type { EntityManager } from '@mikro-orm/postgresql';
import type { Environment } from '../../platform/config/config.ts';
import { DomainError } from '../../platform/errors.ts';
import { levelAasDocument } from '../aas/level-shell.ts';
import { levelCredentialText, levelUntpForms } from '../credentials/level-credentials.ts';
import { UntpUnavailable } from '../credentials/untp-credential.ts';
import { type LevelPassport, levelDigitalLink } from '../levels/levels.ts';
import { levelLinks, levelLinksetDocument, levelPagePath } from './level-links.ts';
import { levelFacts, publicLevel, publicLevelDocument } from './level-view.ts';

export { levelFacts, modelOfBatch } from './level-view.ts';

import type {
  PassportAnswer,
  PassportAsk,
  PassportFormat,
  RepresentationDeps,
  RequestSide,
} from './passport-request.ts';

/**
 * The formats a model or batch passport is served in: all but `erp` (the brand's ERP record of one item: its
 * twin, chip and order; a level has none of them).
 */
export const LEVEL_FORMATS: readonly PassportFormat[] = ['public', 'linkset', 'vc', 'untp', 'vc-jwt', 'aas'];

/** A level's document in a machine format (public, linkset, vc, untp, vc-jwt, aas). */
async function levelDocument(
  deps: RepresentationDeps,
  em: EntityManager,
  level: LevelPassport,
  format: PassportFormat,
): Promise<string> {
  const base = deps.publicBaseUrl;
  const facts = await levelFacts(em, level);
  switch (format) {
    case 'linkset':
      return JSON.stringify(levelLinksetDocument(level, base, facts.view.name, facts.model));
    case 'vc':
      return levelCredentialText(deps.credentials, facts);
    case 'untp':
    case 'vc-jwt': {
      const forms = await levelUntpForms(deps.credentials, facts).catch((error) => {
        if (error instanceof UntpUnavailable) {
          throw new DomainError('not_found', 'untp_data_missing', error.message);
        }
        throw error;
      });
      return format === 'untp' ? forms.dataIntegrity : forms.jwt;
    }
    case 'aas':
      return JSON.stringify(levelAasDocument(facts, base));
    default:
      return JSON.stringify(publicLevelDocument(facts.view, base, facts.model));
  }
}

/**
 * Answers a resolver request for a model or batch passport (docs/public-passport.md "Model and batch
 * addresses"): the default (and a tap: a level has no chip to check) → its page; a link type → that link (404
 * link_type_not_found); each format but erp → the level's (level-view.ts, level-links.ts, the credentials and AAS of
 * src/passport/credentials/level-credentials.ts and src/passport/aas/level-shell.ts); erp → 400
 * format_not_available.
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
      `format=${ask.format} is the ERP record of one item (its twin, chip and order); a ` +
        `${level.granularity} passport is served as ` +
        `${LEVEL_FORMATS.map((format) => `format=${format}`).join(', ')} (and its page without a format).`,
    );
  }
  const em = deps.orm.em.fork();
  if (ask.kind === 'link') {
    const view = await publicLevel(em, level);
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
  return { kind: 'document', body: await levelDocument(deps, em, level, ask.format) };
}
