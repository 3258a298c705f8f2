import type { TenantScope } from '../src/db/tenant-scope.ts';

export interface AnchorEventInput {
  scope: TenantScope;
  eventId: number;
}

export interface AnchorEventResult {
  eventId: number;
  transactionHash: string;
  blockNumber: number;
}
