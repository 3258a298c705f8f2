import { DomainError } from '../../platform/errors.ts';
import type { UntpForms } from '../credentials/signed-store.ts';
import { untpCredential } from '../credentials/untp-credential.ts';
import {
  type AccessRole,
  mayReadVariant,
  productGroupData,
  untpVariant,
} from '../credentials/untp-variants.ts';
import { callerRoles } from '../disclosure/caller-roles.ts';
import type { PassportRecord } from './lookup.ts';
import type { RepresentationDeps, RequestSide } from './passport-request.ts';

/**
 * The UNTP credential a request asks for: a passport without product-group data has one for everyone (an
 * accessRole then names no variant: 404); one with product-group data a variant per audience, the public one
 * without accessRole. A restricted variant needs a caller holding one of its roles (authenticated with an API
 * key, OAuth or user token, or for Customer a fresh tap on this request): 401 without, 403 with other roles.
 */
export async function untpFormsFor(
  deps: RepresentationDeps,
  side: RequestSide,
  passport: PassportRecord,
  accessRole: AccessRole | undefined,
): Promise<UntpForms> {
  const em = deps.orm.em.fork();
  const hasVariants = (await productGroupData(em, passport.id)).length > 0;
  if (!hasVariants) {
    if (accessRole !== undefined && accessRole !== 'Anonymous') {
      throw new DomainError(
        'not_found',
        'variant_not_found',
        'This passport has no product-group data: its one UNTP credential is the same for every audience.',
      );
    }
    return untpCredential(em, deps.credentials, passport);
  }
  const audience = accessRole ?? 'Anonymous';
  if (audience !== 'Anonymous') {
    const context = await side.caller();
    const caller = await callerRoles(
      context,
      { em: deps.orm.em.fork(), secretBox: deps.secretBox },
      { companyId: passport.companyId, environment: passport.environment, chipUid: passport.chipUid },
    );
    if (!mayReadVariant(caller, audience)) {
      throw context.state.principal
        ? new DomainError(
            'forbidden',
            'variant_not_disclosed',
            `Your roles do not include the ${audience} audience.`,
          )
        : new DomainError(
            'unauthenticated',
            'credential_required',
            `The ${audience} variant needs a credential of a company holding that role (or, for Customer, a fresh tap).`,
          );
    }
    side.variesByCredential();
  }
  return untpVariant(em, deps.credentials, passport, audience);
}
