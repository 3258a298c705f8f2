import type { EntityManager } from '@mikro-orm/postgresql';
import type { Environment } from '../../platform/config/config.ts';
import { DomainError } from '../../platform/errors.ts';
import type { IssuerKeyring } from '../../standards/credentials/issuer-keys.ts';
import { findDppById } from '../dpp-api/find-dpp.ts';
import { findLevelById } from '../levels/levels.ts';
import { dppIdOf, serviceUidOfDppId } from '../record/passport-header.ts';
import { itemEvidence, levelEvidence } from './build-evidence.ts';
import type { EvidenceBundle } from './bundle.ts';

export interface EvidenceRequest {
  environment: Environment;
  dppId: string;
  /**
   * Whether the company asking may read the passport's evidence: its brand, or an authority of the register
   * (docs/disclosure.md). Anyone else is answered as if the passport did not exist.
   */
  mayRead: (brandCompanyId: string) => Promise<boolean>;
}

export interface EvidenceDeps {
  /** Unscoped: the passport is found across companies, then the caller's right to it is checked. */
  em: EntityManager;
  keyring: IssuerKeyring;
  publicBaseUrl: string;
}

/** The evidence bundle of the passport (item, model or batch) a dppId names, for a caller who may read it. */
export async function evidenceFor(deps: EvidenceDeps, request: EvidenceRequest): Promise<EvidenceBundle> {
  const { em, keyring, publicBaseUrl } = deps;
  const level = await findLevelById(em, request.environment, request.dppId);
  const notFound = () =>
    new DomainError(
      'not_found',
      'dpp_not_found',
      `No passport ${dppIdOf(serviceUidOfDppId(request.dppId) ?? request.dppId)}.`,
    );
  if (level) {
    if (!(await request.mayRead(level.companyId))) throw notFound();
    return levelEvidence(em, keyring, publicBaseUrl, level);
  }
  const ref = await findDppById(em, request.environment, request.dppId);
  if (!(await request.mayRead(ref.companyId))) throw notFound();
  return itemEvidence(em, keyring, publicBaseUrl, ref);
}
