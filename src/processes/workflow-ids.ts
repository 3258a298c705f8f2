import type { Environment } from '../platform/config/config.ts';

/**
 * Workflow ids are business ids an operator can type into the Temporal UI. Starting a workflow with an id
 * that is already running joins it instead of starting a second one (see the start helpers).
 * `mint` names the chip, not the company: a chip UID is unique in an environment (one chip, one token), so
 * there is one mint workflow per chip, and a mint request joins it only if its own company started it
 * (`startOrJoin`'s `ownRunsOnly`; docs/minting.md).
 */
export const workflowIds = {
  mint: (environment: Environment, chipUid: string) => `mint:${environment}:${chipUid}`,
  resale: (environment: Environment, tokenId: string) => `resale:${environment}:${tokenId}`,
  recycle: (environment: Environment, tokenId: string) => `recycle:${environment}:${tokenId}`,
  anchorEvent: (environment: Environment, eventId: number | string) =>
    `anchor-event:${environment}:${eventId}`,
  anchorLevelVersion: (environment: Environment, levelId: number, number: number) =>
    `anchor-level-version:${environment}:${levelId}:${number}`,
  webhook: (eventId: string, endpointId: string) => `webhook:${eventId}:${endpointId}`,
  /** One per passport (item, batch or model): drains its registration intents to the EU registry in order. */
  registry: (environment: Environment, serviceUid: string) => `registry:${environment}:${serviceUid}`,
  /** One per spreadsheet import job (its id names the company, environment and file). */
  spreadsheetImport: (environment: Environment, jobId: string) =>
    `spreadsheet-import:${environment}:${jobId}`,
};
