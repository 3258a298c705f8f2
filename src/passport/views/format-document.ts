import { scopedEntityManager } from '../../platform/db/tenant-scope.ts';
import { DomainError } from '../../platform/errors.ts';
import { resolveShell } from '../aas/resolve.ts';
import { passportCredentialText } from '../credentials/passport-credential.ts';
import { UntpUnavailable, untpHeader, untpMissing } from '../credentials/untp-credential.ts';
import { ACCESS_ROLES, productGroupData } from '../credentials/untp-variants.ts';
import { levelsOfItem } from '../levels/levels.ts';
import { relatedPassport } from '../record/passport-document.ts';
import { loadRelatedPassports } from '../record/passport-versions.ts';
import { erpDocument } from './erp-view.ts';
import { linksetDocument } from './linkset.ts';
import type { CachedCredential, PassportRecord, ProvenanceEvent } from './lookup.ts';
import type { PassportAnswer, PassportAsk, RepresentationDeps, RequestSide } from './passport-request.ts';
import { untpFormsFor } from './untp-answer.ts';

interface Found {
  passport: PassportRecord;
  events: readonly ProvenanceEvent[];
  stamp: string;
  cached: CachedCredential | undefined;
}

/** One representation of a loaded passport. */
export async function formatDocument(
  deps: RepresentationDeps,
  side: RequestSide,
  ask: Extract<PassportAsk, { kind: 'format' }>,
  found: Found,
): Promise<PassportAnswer> {
  const { passport } = found;
  const { environment } = passport;
  const base = deps.publicBaseUrl;
  switch (ask.format) {
    case 'public':
      throw new Error('format=public is answered from its own statement (representation.ts)');
    case 'vc': {
      const credential = await passportCredentialText(deps.orm.em.fork(), deps.credentials, found);
      return { kind: 'document', body: credential };
    }
    case 'untp':
    case 'vc-jwt': {
      // The UNTP 0.7.0 credential: with its Data Integrity proof, or secured with VC-JOSE; a passport with
      // product-group data has one per audience (untp-variants.ts).
      const forms = await untpFormsFor(deps, side, passport, ask.accessRole).catch((error) => {
        if (error instanceof UntpUnavailable) {
          throw new DomainError('not_found', 'untp_data_missing', error.message);
        }
        throw error;
      });
      return { kind: 'document', body: ask.format === 'untp' ? forms.dataIntegrity : forms.jwt };
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
      return { kind: 'document', body: JSON.stringify({ success: true, ...shell }) };
    }
    case 'linkset': {
      const em = deps.orm.em.fork();
      const header = await untpHeader(em, passport, base);
      const withUntp = untpMissing(passport, header).length === 0;
      const variants =
        (await productGroupData(em, passport.id)).length > 0
          ? ACCESS_ROLES.filter((role) => ask.accessRole === undefined || role === ask.accessRole)
          : undefined;
      const related = (await loadRelatedPassports(em, passport.id)).map((fact) =>
        relatedPassport(fact, base),
      );
      const levels = await levelsOfItem(em, passport.id);
      const document = linksetDocument(passport, base, withUntp, { variants, related, levels });
      return { kind: 'document', body: JSON.stringify(document) };
    }
    case 'erp': {
      // The brand's data: only an API key of the passport's own company reads it.
      const caller = await side.apiKeyCaller();
      if (caller.companyId !== passport.companyId) {
        throw new DomainError(
          'forbidden',
          'not_passport_owner',
          'format=erp is for the company that owns this passport.',
        );
      }
      const document = await erpDocument(caller.em, passport.tokenId, base);
      return { kind: 'document', body: JSON.stringify(document), private: true };
    }
  }
}
