/** The product's GS1 Digital Link: GTIN (AI 01) and serial (AI 21, our token id) on our resolver. */
export function digitalLink(baseUrl: string, gtin: string | null | undefined, tokenId: string): string {
  return `${baseUrl}/01/${gtin ?? '00000000000000'}/21/${encodeURIComponent(tokenId)}`;
}
