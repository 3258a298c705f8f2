/** The block explorer page of a transaction (CHAIN_EXPLORER_URL_* with `{tx}`), or null without an explorer. */
export function explorerTxUrl(template: string | undefined, transactionHash: string): string | null {
  return template ? template.replaceAll('{tx}', encodeURIComponent(transactionHash)) : null;
}
