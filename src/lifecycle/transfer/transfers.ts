import type { EntityManager } from '@mikro-orm/postgresql';
import { pgTimestamp } from '../../passport/record/pg-values.ts';
import type { Environment } from '../../platform/config/config.ts';
import { DomainError } from '../../platform/errors.ts';

export const TRANSFER_STATUSES = ['offered', 'accepted', 'declined', 'withdrawn', 'expired'] as const;
export type TransferStatus = (typeof TRANSFER_STATUSES)[number];

/** An offer to hand a passport's responsibility to another economic operator (EN 18239), as its parties see it. */
export interface Transfer {
  id: string;
  environment: Environment;
  passportId: number;
  /** The passport's DPP id (urn:uuid:…) and Digital Link key. */
  dppId: string;
  tokenId: string;
  fromCompanyId: string;
  toCompanyId: string;
  /** `offered` past its expiry reads `expired`. */
  status: TransferStatus;
  note: string | null;
  offeredAt: Date;
  expiresAt: Date;
  decidedAt: Date | null;
}

interface TransferRow {
  id: string;
  environment: Environment;
  passport_id: number;
  service_uid: string;
  token_id: string;
  from_company_id: string;
  to_company_id: string;
  status: TransferStatus;
  note: string | null;
  offered_at: string | Date;
  expires_at: string | Date;
  decided_at: string | Date | null;
  expired: boolean;
}

export const TRANSFER_COLUMNS = `t.id, t.environment, t.passport_id, p.service_uid, p.token_id, t.from_company_id,
  t.to_company_id, t.status, t.note, t.offered_at, t.expires_at, t.decided_at,
  (t.status = 'offered' and t.expires_at <= now()) as expired`;

export function toTransfer(row: TransferRow): Transfer {
  return {
    id: row.id,
    environment: row.environment,
    passportId: row.passport_id,
    dppId: `urn:uuid:${row.service_uid}`,
    tokenId: row.token_id,
    fromCompanyId: row.from_company_id,
    toCompanyId: row.to_company_id,
    status: row.expired ? 'expired' : row.status,
    note: row.note,
    offeredAt: pgTimestamp(row.offered_at),
    expiresAt: pgTimestamp(row.expires_at),
    decidedAt: row.decided_at === null ? null : pgTimestamp(row.decided_at),
  };
}

/** A transfer as its parties list it: with both companies' names, so a person knows who is who. */
export interface ListedTransfer extends Transfer {
  fromCompanyName: string;
  toCompanyName: string;
}

/** The transfers of a company (made or received) in an environment, newest first. */
export async function listTransfers(
  em: EntityManager,
  scope: { companyId: string; environment: Environment },
): Promise<ListedTransfer[]> {
  const rows = await em.execute<(TransferRow & { from_company_name: string; to_company_name: string })[]>(
    `select ${TRANSFER_COLUMNS}, fc.name as from_company_name, tc.name as to_company_name
     from passport_transfers t join passports p on p.id = t.passport_id
       join companies fc on fc.id = t.from_company_id join companies tc on tc.id = t.to_company_id
     where t.environment = ? and (t.from_company_id = ? or t.to_company_id = ?)
     order by t.offered_at desc, t.id limit 500`,
    [scope.environment, scope.companyId, scope.companyId],
  );
  return rows.map((row) => ({
    ...toTransfer(row),
    fromCompanyName: row.from_company_name,
    toCompanyName: row.to_company_name,
  }));
}

/** A transfer one of whose parties is the caller (anyone else: not found, as if it did not exist). */
export async function findTransfer(
  em: EntityManager,
  scope: { companyId: string; environment: Environment },
  id: string,
  options: { lock?: boolean } = {},
): Promise<Transfer> {
  const [row] = /^[0-9a-f-]{36}$/i.test(id)
    ? await em.execute<TransferRow[]>(
        `select ${TRANSFER_COLUMNS} from passport_transfers t join passports p on p.id = t.passport_id
         where t.id = ? and t.environment = ? and (t.from_company_id = ? or t.to_company_id = ?)
         ${options.lock ? 'for update of t' : ''}`,
        [id, scope.environment, scope.companyId, scope.companyId],
      )
    : [];
  if (!row) throw new DomainError('not_found', 'transfer_not_found', `No transfer ${id} of yours.`);
  return toTransfer(row);
}

/** 409 for a decision on a transfer no longer open (the other party, or time, decided first). */
export function notOpen(transfer: Transfer): DomainError {
  return new DomainError(
    'conflict',
    'transfer_not_open',
    `Transfer ${transfer.id} is ${transfer.status}${
      transfer.decidedAt ? ` since ${transfer.decidedAt.toISOString()}` : ''
    }: it can no longer be accepted, declined or withdrawn.`,
  );
}
