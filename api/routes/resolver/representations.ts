import { resolveShell } from '../../../src/passport/aas/resolve.ts';
import { passportCredentialText } from '../../../src/passport/credentials/passport-credential.ts';
import type { UntpForms } from '../../../src/passport/credentials/signed-store.ts';
import {
  UntpUnavailable,
  untpCredential,
  untpHeader,
  untpMissing,
} from '../../../src/passport/credentials/untp-credential.ts';
import {
  ACCESS_ROLES,
  type AccessRole,
  mayReadVariant,
  productGroupData,
  untpVariant,
} from '../../../src/passport/credentials/untp-variants.ts';
import { callerRoles } from '../../../src/passport/disclosure/caller-roles.ts';
import { relatedPassport } from '../../../src/passport/record/passport-document.ts';
import { loadRelatedPassports } from '../../../src/passport/record/passport-versions.ts';
import { erpDocument } from '../../../src/passport/views/erp-view.ts';
import { LINKSET_CONTEXT_LINK, linksetDocument } from '../../../src/passport/views/linkset.ts';
import type {
  CachedCredential,
  PassportRecord,
  ProvenanceEvent,
} from '../../../src/passport/views/lookup.ts';
import type { Environment } from '../../../src/platform/config/config.ts';
import { scopedEntityManager } from '../../../src/platform/db/tenant-scope.ts';
import type { AppContext } from '../../context.ts';
import { authenticateApiKey } from '../../middleware/api-key-auth.ts';
import { authenticateIfPresent } from '../../middleware/optional-auth.ts';
import { Problem } from '../../problem.ts';
import { sendText } from './http.ts';
import type { Format } from './negotiate.ts';
import type { PublicPassportDeps } from './public-passport-deps.ts';

interface Found {
  passport: PassportRecord;
  events: readonly ProvenanceEvent[];
  stamp: string;
  cached: CachedCredential | undefined;
}

/** Writes one representation of a found passport (format and media type already negotiated). */
export async function sendRepresentation(
  ctx: AppContext,
  deps: PublicPassportDeps,
  representation: { format: Format; contentType: string },
  found: Found,
  environment: Environment,
): Promise<void> {
  const { passport } = found;
  const base = deps.config.publicBaseUrl;
  switch (representation.format) {
    case 'public':
      throw new Error('format=public is answered from its own statement (fast-paths.ts)');
    case 'vc': {
      const credential = await passportCredentialText(deps.orm.em.fork(), deps.credentials, found);
      sendText(ctx, credential, representation.contentType);
      return;
    }
    case 'untp':
    case 'vc-jwt': {
      // The UNTP 0.7.0 credential: with its Data Integrity proof, or secured with VC-JOSE; a passport with
      // product-group data has one per audience (untp-variants.ts).
      const forms = await untpForms(ctx, deps, passport, environment).catch((error) => {
        if (error instanceof UntpUnavailable) {
          throw new Problem(404, 'untp_data_missing', error.message);
        }
        throw error;
      });
      const body = representation.format === 'untp' ? forms.dataIntegrity : forms.jwt;
      sendText(ctx, body, representation.contentType);
      return;
    }
    case 'aas': {
      // The same document as GET /v1/aas/resolve/:id, read in the passport's own company scope.
      const scope = { companyId: passport.companyId, environment };
      const shell = await resolveShell(
        scopedEntityManager(deps.orm.em, scope),
        passport.tokenId,
        base,
        environment,
      );
      sendText(ctx, JSON.stringify({ success: true, ...shell }), representation.contentType);
      return;
    }
    case 'linkset': {
      ctx.append('Link', LINKSET_CONTEXT_LINK);
      const em = deps.orm.em.fork();
      const header = await untpHeader(em, passport, base);
      const withUntp = untpMissing(passport, header).length === 0;
      const accessRole = requestedAccessRole(ctx);
      const variants =
        (await productGroupData(em, passport.id)).length > 0
          ? ACCESS_ROLES.filter((role) => accessRole === undefined || role === accessRole)
          : undefined;
      const related = (await loadRelatedPassports(em, passport.id)).map((fact) =>
        relatedPassport(fact, base),
      );
      const document = linksetDocument(passport, base, withUntp, { variants, related });
      sendText(ctx, JSON.stringify(document), representation.contentType);
      return;
    }
    case 'erp': {
      // The brand's data: only an API key of the passport's own company reads it.
      await authenticateApiKey(ctx, deps.orm.em, environment);
      if (ctx.state.scope!.companyId !== passport.companyId) {
        throw new Problem(
          403,
          'not_passport_owner',
          'format=erp is for the company that owns this passport.',
        );
      }
      const document = await erpDocument(ctx.state.em!, passport.tokenId, base);
      sendText(ctx, JSON.stringify(document), representation.contentType, 'private, no-cache');
      return;
    }
  }
}

function requestedAccessRole(ctx: AppContext): AccessRole | undefined {
  const value = ctx.query.accessRole;
  return typeof value === 'string' && (ACCESS_ROLES as readonly string[]).includes(value)
    ? (value as AccessRole)
    : undefined;
}

/**
 * The UNTP credential the request asks for: a passport without product-group data has one for everyone (an
 * accessRole then names no variant: 404); one with product-group data a variant per audience, the public one
 * without accessRole. A restricted variant needs a caller holding one of its roles (authenticated with an API
 * key, OAuth or user token, or for Customer a fresh tap on this request): 401 without, 403 with other roles.
 */
async function untpForms(
  ctx: AppContext,
  deps: PublicPassportDeps,
  passport: PassportRecord,
  environment: Environment,
): Promise<UntpForms> {
  const em = deps.orm.em.fork();
  const accessRole = requestedAccessRole(ctx);
  const hasVariants = (await productGroupData(em, passport.id)).length > 0;
  if (!hasVariants) {
    if (accessRole !== undefined && accessRole !== 'Anonymous') {
      throw new Problem(
        404,
        'variant_not_found',
        'This passport has no product-group data: its one UNTP credential is the same for every audience.',
      );
    }
    return untpCredential(em, deps.credentials, passport);
  }
  const audience = accessRole ?? 'Anonymous';
  if (audience !== 'Anonymous') {
    await authenticateIfPresent(ctx, deps, environment);
    const caller = await callerRoles(
      ctx,
      { em: deps.orm.em.fork(), secretBox: deps.secretBox },
      { companyId: passport.companyId, environment, chipUid: passport.chipUid },
    );
    if (!mayReadVariant(caller, audience)) {
      throw ctx.state.principal
        ? new Problem(403, 'variant_not_disclosed', `Your roles do not include the ${audience} audience.`)
        : new Problem(
            401,
            'credential_required',
            `The ${audience} variant needs a credential of a company holding that role (or, for Customer, a fresh tap).`,
          );
    }
    ctx.set('Vary', 'Accept, x-service-env, Authorization');
  }
  return untpVariant(em, deps.credentials, passport, audience);
}
