import { call, type Environment } from './api.ts';

/** The console's calls for Transfers (docs/exit.md "Handing a passport to another operator"). */

export type TransferStatus = 'offered' | 'accepted' | 'declined' | 'withdrawn' | 'expired';

export interface Transfer {
  id: string;
  dppId: string;
  tokenId: string;
  fromCompanyId: string;
  fromCompanyName: string;
  toCompanyId: string;
  toCompanyName: string;
  status: TransferStatus;
  note: string | null;
  offeredAt: string;
  expiresAt: string;
  decidedAt: string | null;
}

export interface OfferInput {
  toCompanyId: string;
  expiresInDays?: number;
  note?: string;
}

const transfer = (id: string, action: 'accept' | 'decline' | 'withdraw') =>
  `/v1/transfers/${encodeURIComponent(id)}/${action}`;

export const transfers = {
  list: (env: Environment) => call<{ companyId: string; transfers: Transfer[] }>(env, 'GET', '/v1/transfers'),
  offer: (env: Environment, dppId: string, input: OfferInput) =>
    call<{ transfer: Transfer }>(env, 'POST', `/v1/dpps/${encodeURIComponent(dppId)}/transfers`, input),
  decide: (env: Environment, id: string, action: 'accept' | 'decline' | 'withdraw') =>
    call<{ transfer: Transfer }>(env, 'POST', transfer(id, action)),
};
