import { CONFORMITY_DEFAULT_HINT, esprConformityMessage } from '../../../src/lifecycle/mint/mint-request.ts';
import { Problem } from '../../problem.ts';

const DEFAULT_HINT_EN = 'set the company’s defaultConformityUrl (PATCH /v1/company/settings)';

/**
 * 400 conformity_required with the spec's ESPR text, naming where this request could bring the declaration of
 * conformity: `field` (the request's own member, body path `path`; `fieldEn` when its German wording differs)
 * and/or the company default. The German text comes first, as the spec requires; an English sentence follows
 * it in the same `detail` (docs/minting.md).
 */
export function conformityRequired(where: {
  field?: string;
  fieldEn?: string;
  path: string;
  companyDefault: boolean;
}): Problem {
  const german = [where.field, where.companyDefault ? CONFORMITY_DEFAULT_HINT : undefined].filter(Boolean);
  const english = [
    where.field ? `send ${where.fieldEn ?? where.field}` : undefined,
    where.companyDefault ? DEFAULT_HINT_EN : undefined,
  ].filter(Boolean);
  const detail =
    `${esprConformityMessage(german.join(' oder '))} In English: a declaration of conformity is mandatory ` +
    `under the EU Ecodesign Regulation (ESPR); ${english.join(', or ')}.`;
  return new Problem(400, 'conformity_required', detail, {
    errors: [{ path: where.path, message: 'Required', code: 'invalid_type' }],
  });
}
