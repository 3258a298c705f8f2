import type { Environment } from '../../platform/config/config.ts';

/**
 * Where an environment's passports are resolved: live at the root of the public base URL, test under `/test`
 * (so a test passport opens in a plain browser, and a live address never shows one).
 */
export function resolverBase(publicBaseUrl: string, environment: Environment): string {
  return environment === 'test' ? `${publicBaseUrl}/test` : publicBaseUrl;
}

/**
 * The product's GS1 Digital Link: GTIN (AI 01) and serial (AI 21, our token id) on our resolver, under the
 * environment's base (resolverBase).
 */
export function digitalLink(
  publicBaseUrl: string,
  environment: Environment,
  gtin: string | null | undefined,
  tokenId: string,
): string {
  return `${resolverBase(publicBaseUrl, environment)}/01/${gtin ?? '00000000000000'}/21/${encodeURIComponent(tokenId)}`;
}
