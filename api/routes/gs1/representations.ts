import { resolveShell } from '../../../src/aas/resolve.ts';
import type { Environment } from '../../../src/config/config.ts';
import { scopedEntityManager } from '../../../src/db/tenant-scope.ts';
import { erpDocument } from '../../../src/public-passport/erp-view.ts';
import { LINKSET_CONTEXT_LINK, linksetDocument } from '../../../src/public-passport/linkset.ts';
import type {
  CachedCredential,
  PassportRecord,
  ProvenanceEvent,
} from '../../../src/public-passport/lookup.ts';
import { passportCredentialText } from '../../../src/public-passport/passport-credential.ts';
import {
  UntpUnavailable,
  untpCredential,
  untpHeader,
  untpMissing,
} from '../../../src/public-passport/untp-credential.ts';
import type { AppContext } from '../../context.ts';
import { authenticateApiKey } from '../../middleware/api-key-auth.ts';
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
      // The UNTP 0.7.0 credential: with its Data Integrity proof, or secured with VC-JOSE.
      const forms = await untpCredential(deps.orm.em.fork(), deps.credentials, passport).catch((error) => {
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
      const header = await untpHeader(deps.orm.em.fork(), passport, base);
      const withUntp = untpMissing(passport, header).length === 0;
      sendText(ctx, JSON.stringify(linksetDocument(passport, base, withUntp)), representation.contentType);
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
