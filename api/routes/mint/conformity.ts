import { CONFORMITY_DEFAULT_HINT, esprConformityMessage } from '../../../src/lifecycle/mint/mint-request.ts';
import { Problem } from '../../problem.ts';

/**
 * 400 conformity_required with the spec's ESPR text, naming where this request could bring the declaration of
 * conformity: `field` (the request's own member, body path `path`) and/or the company default.
 */
export function conformityRequired(where: {
  field?: string;
  path: string;
  companyDefault: boolean;
}): Problem {
  const hints = [where.field, where.companyDefault ? CONFORMITY_DEFAULT_HINT : undefined].filter(Boolean);
  return new Problem(400, 'conformity_required', esprConformityMessage(hints.join(' oder ')), {
    errors: [{ path: where.path, message: 'Required', code: 'invalid_type' }],
  });
}
