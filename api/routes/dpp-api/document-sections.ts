import { DomainError } from '../../../src/platform/errors.ts';
import type { AppContext } from '../../context.ts';

/** The prefix of a product-group section's key in a compressed document (its content specification id). */
export const PRODUCT_GROUP_PREFIX = 'urn:dpp-service:spec:';

/** The product-group sections of a compressed document body, and the members left alone. */
export function sectionsOf(body: Record<string, unknown>) {
  const sections = Object.entries(body).filter(([key]) => key.startsWith(PRODUCT_GROUP_PREFIX));
  const ignored = Object.keys(body).filter((key) => !key.startsWith(PRODUCT_GROUP_PREFIX));
  if (sections.length === 0) {
    throw new DomainError(
      'invalid',
      'no_product_group_section',
      `The body names no product-group section (a member keyed by its content specification id, ${PRODUCT_GROUP_PREFIX}…).`,
    );
  }
  return { sections, ignored };
}

export function ifMatchFor(ctx: AppContext, sections: number): string | undefined {
  const ifMatch = ctx.get('If-Match') || undefined;
  if (ifMatch !== undefined && sections > 1) {
    throw new DomainError(
      'invalid',
      'if_match_ambiguous',
      'If-Match names one section’s data: write one product-group section per request to use it.',
    );
  }
  return ifMatch;
}
