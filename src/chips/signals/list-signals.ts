import type { EntityManager } from '@mikro-orm/postgresql';
import type { TenantScope } from '../../platform/db/tenant-scope.ts';
import type { Severity, SignalType } from './signal-types.ts';

export const SIGNALS_MAX_PAGE = 200;

export interface SignalView {
  id: string;
  type: SignalType;
  severity: Severity;
  chipUid: string;
  tokenId: string | null;
  evidence: Record<string, unknown>;
  raisedAt: string;
  updatedAt: string;
  resolved: boolean;
  resolvedAt: string | null;
  resolvedBy: string | null;
}

interface SignalRow {
  id: string;
  type: SignalType;
  severity: Severity;
  chip_uid: string;
  token_id: string | null;
  evidence: Record<string, unknown>;
  raised_at: Date;
  updated_at: Date;
  resolved_at: Date | null;
  resolved_by: string | null;
}

export const SIGNAL_COLUMNS =
  'id, type, severity, chip_uid, token_id, evidence, raised_at, updated_at, resolved_at, resolved_by';

export function signalView(row: SignalRow): SignalView {
  return {
    id: row.id,
    type: row.type,
    severity: row.severity,
    chipUid: row.chip_uid,
    tokenId: row.token_id,
    evidence: row.evidence,
    raisedAt: new Date(row.raised_at).toISOString(),
    updatedAt: new Date(row.updated_at).toISOString(),
    resolved: row.resolved_at !== null,
    resolvedAt: row.resolved_at ? new Date(row.resolved_at).toISOString() : null,
    resolvedBy: row.resolved_by,
  };
}

export interface SignalFilter {
  tokenId?: string | undefined;
  status: 'open' | 'resolved' | 'all';
  limit: number;
  /** The nextCursor of the previous page: `<raisedAt ISO>|<id>`. */
  after?: string | undefined;
}

/** The company's signals in this environment, newest first; per passport with `tokenId`. */
export async function listSignals(
  em: EntityManager,
  scope: TenantScope,
  filter: SignalFilter,
): Promise<{ signals: SignalView[]; nextCursor: string | null }> {
  const [afterAt, afterId] = filter.after?.split('|') ?? [];
  const rows = await em.execute<SignalRow[]>(
    `select ${SIGNAL_COLUMNS} from chip_signals
      where company_id = ? and environment = ?
        and (?::text is null or token_id = ?)
        and (? = 'all' or (resolved_at is null) = (? = 'open'))
        and (?::timestamptz is null or (raised_at, id) < (?::timestamptz, ?::uuid))
      order by raised_at desc, id desc
      limit ?`,
    [
      scope.companyId,
      scope.environment,
      filter.tokenId ?? null,
      filter.tokenId ?? null,
      filter.status,
      filter.status,
      afterAt ?? null,
      afterAt ?? null,
      afterId ?? null,
      filter.limit + 1,
    ],
  );
  const page = rows.slice(0, filter.limit).map(signalView);
  const last = page.at(-1);
  return {
    signals: page,
    nextCursor: rows.length > filter.limit && last ? `${last.raisedAt}|${last.id}` : null,
  };
}
