import type { EntityManager } from '@mikro-orm/postgresql';
import { type ContentViolation, contentSpecifications } from '../content/content-specification.ts';
import { levelUntpProduct } from '../credentials/level-untp.ts';
import { UntpUnavailable, untpHeader, untpMissing } from '../credentials/untp-credential.ts';
import type { DppRef } from '../dpp-api/find-dpp.ts';
import { itemContentView, levelContentView } from '../levels/content-view.ts';
import type { LevelPassport } from '../levels/levels.ts';
import { dppIdOf } from '../record/passport-header.ts';
import { levelFacts } from './level-view.ts';
import { findPassport } from './lookup.ts';

/**
 * What a passport still lacks (issue 36, docs/console.md "Completeness"): computed by the very functions that
 * refuse the UNTP credential (untp_data_missing), validate product-group data (content_invalid) and fill the
 * EN 18223 header, so the console's panel and the API never disagree.
 */
export interface MissingFact {
  /** What is missing, as the refusing function names it. */
  fact: string;
  /** Where it is filled: a field of product-group data, a company setting, or the passport's mint metadata. */
  fix:
    | { kind: 'content'; specificationId: string; pointer: string }
    | { kind: 'setting'; setting: 'economicOperatorId' | 'facilityId' }
    | { kind: 'metadata'; field: string };
}

export interface CompletenessSection {
  id: string;
  title: string;
  missing: MissingFact[];
}

export interface Completeness {
  digitalProductPassportId: string;
  complete: boolean;
  sections: CompletenessSection[];
}

type Data = Record<string, unknown>;

function untpFix(fact: string): MissingFact['fix'] {
  if (fact.startsWith('producedAtFacility')) return { kind: 'setting', setting: 'facilityId' };
  if (fact.startsWith('productCategory')) return { kind: 'metadata', field: 'custom_dpp_data.hsCode' };
  return { kind: 'metadata', field: 'custom_dpp_data.originCountry' };
}

function levelUntpFix(fact: string, specificationId: string | undefined): MissingFact['fix'] {
  if (fact.startsWith('producedAtFacility')) return { kind: 'setting', setting: 'facilityId' };
  if (fact.startsWith('countryOfProduction') && specificationId) {
    return { kind: 'content', specificationId, pointer: '/generalProductInformation/countryOfProduction' };
  }
  return { kind: 'metadata', field: 'hsCode' };
}

/** The product-group rules: every violation of the data (merged, for an item) against its pinned schema. */
function contentSection(specificationId: string, data: Data | undefined): CompletenessSection {
  const spec = contentSpecifications.get(specificationId)!;
  const violations: ContentViolation[] = contentSpecifications.validate(specificationId, data ?? {});
  return {
    id: `content:${specificationId}`,
    title: `${spec.title} (${specificationId})`,
    missing: violations.map((violation) => ({
      fact: `${violation.pointer || '/'}: ${violation.message}`,
      fix: { kind: 'content', specificationId, pointer: violation.pointer },
    })),
  };
}

function headerSection(header: { economicOperatorId?: unknown; facilityId?: unknown }): CompletenessSection {
  const missing: MissingFact[] = [];
  if (!header.economicOperatorId) {
    missing.push({
      fact: 'economicOperatorId (the company’s economic operator identifier)',
      fix: { kind: 'setting', setting: 'economicOperatorId' },
    });
  }
  if (!header.facilityId) {
    missing.push({
      fact: 'facilityId (the company’s facility identifier)',
      fix: { kind: 'setting', setting: 'facilityId' },
    });
  }
  return { id: 'header', title: 'EN 18223 passport header', missing };
}

/** The product-group specifications a passport is pinned to, or every registered one when none is yet. */
function specificationsOf(ids: readonly string[]): string[] {
  const pinned = ids.filter((id) => contentSpecifications.get(id) !== undefined);
  return pinned.length > 0 ? pinned : contentSpecifications.list().map((spec) => spec.id);
}

function answer(serviceUid: string, sections: CompletenessSection[]): Completeness {
  return {
    digitalProductPassportId: dppIdOf(serviceUid),
    complete: sections.every((section) => section.missing.length === 0),
    sections,
  };
}

/** An item passport's completeness. */
export async function itemCompleteness(
  em: EntityManager,
  ref: DppRef,
  publicBaseUrl: string,
): Promise<Completeness> {
  const passport = (await findPassport(em, ref.environment, ref.tokenId))!;
  const header = await untpHeader(em, passport, publicBaseUrl);
  const untp: CompletenessSection = {
    id: 'untp',
    title: 'UNTP Digital Product Passport credential',
    missing: untpMissing(passport, header).map((fact) => ({ fact, fix: untpFix(fact) })),
  };
  const content: CompletenessSection[] = [];
  for (const id of specificationsOf(header.contentSpecificationIds)) {
    const group = contentSpecifications.get(id)!.group;
    const view = await itemContentView(em, ref, group);
    content.push(contentSection(view?.specificationId ?? id, view?.data));
  }
  return answer(ref.serviceUid, [untp, ...content, headerSection(header)]);
}

/** A model's or batch's completeness. */
export async function levelCompleteness(
  em: EntityManager,
  level: LevelPassport,
  publicBaseUrl: string,
): Promise<Completeness> {
  const facts = await levelFacts(em, level);
  const ids = Array.isArray(facts.view.header.contentSpecificationIds)
    ? (facts.view.header.contentSpecificationIds as string[])
    : [];
  const specs = specificationsOf(ids);
  const content: CompletenessSection[] = [];
  for (const id of specs) {
    const view = await levelContentView(em, level, contentSpecifications.get(id)!.group);
    content.push(contentSection(view?.specificationId ?? id, view?.data));
  }
  let missing: string[] = [];
  try {
    levelUntpProduct(facts, publicBaseUrl);
  } catch (error) {
    if (!(error instanceof UntpUnavailable)) throw error;
    missing = error.missing;
  }
  const untp: CompletenessSection = {
    id: 'untp',
    title: 'UNTP Digital Product Passport credential',
    missing: missing.map((fact) => ({ fact, fix: levelUntpFix(fact, specs[0]) })),
  };
  return answer(level.serviceUid, [untp, ...content, headerSection(facts.view.header)]);
}
