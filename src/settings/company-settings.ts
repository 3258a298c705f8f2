import type { EntityManager } from '@mikro-orm/postgresql';
import type { TenantScope } from '../db/tenant-scope.ts';

/** Warranty a sale starts when the company has not set its own: the EU legal guarantee for new goods. */
export const DEFAULT_WARRANTY_MONTHS = 24;
export const MAX_WARRANTY_MONTHS = 120;

/** A company's product settings in one environment (table company_settings; no row = the defaults). */
export interface CompanySettings {
  /** Declaration of conformity for mints that bring none (mint shape B, toolbox bind); null = none. */
  defaultConformityUrl: string | null;
  /** Months of warranty a sale (SOLD / INITIAL_SALE) starts. */
  warrantyMonths: number;
}

interface Row {
  default_conformity_url: string | null;
  warranty_months: number;
}

const fromRow = (row: Row | undefined): CompanySettings => ({
  defaultConformityUrl: row?.default_conformity_url ?? null,
  warrantyMonths: row?.warranty_months ?? DEFAULT_WARRANTY_MONTHS,
});

export async function readCompanySettings(em: EntityManager, scope: TenantScope): Promise<CompanySettings> {
  const [row] = await em.execute<Row[]>(
    'select default_conformity_url, warranty_months from company_settings where company_id = ? and environment = ?',
    [scope.companyId, scope.environment],
  );
  return fromRow(row);
}

/**
 * Changes the members given (a null `defaultConformityUrl` clears the link) in one statement, so two changes
 * of different members at once both stand; answers the settings as they are now.
 */
export async function updateCompanySettings(
  em: EntityManager,
  scope: TenantScope,
  change: Partial<CompanySettings>,
): Promise<CompanySettings> {
  const setsUrl = change.defaultConformityUrl !== undefined;
  const setsMonths = change.warrantyMonths !== undefined;
  const [row] = await em.execute<Row[]>(
    `insert into company_settings (company_id, environment, default_conformity_url, warranty_months, updated_at)
     values (?, ?, ?, ?, now())
     on conflict (company_id, environment) do update set
       default_conformity_url = case when ? then excluded.default_conformity_url
                                     else company_settings.default_conformity_url end,
       warranty_months = case when ? then excluded.warranty_months else company_settings.warranty_months end,
       updated_at = now()
     returning default_conformity_url, warranty_months`,
    [
      scope.companyId,
      scope.environment,
      change.defaultConformityUrl ?? null,
      change.warrantyMonths ?? DEFAULT_WARRANTY_MONTHS,
      setsUrl,
      setsMonths,
    ],
  );
  return fromRow(row);
}

/**
 * When a warranty of `months` started at `start` ends: the same day of the month `months` later (UTC), or the
 * month's last day when it has no such day (31 January + 1 month = 28/29 February), at the same time of day.
 */
export function warrantyEnd(start: Date, months: number): Date {
  const end = new Date(start.getTime());
  const day = start.getUTCDate();
  end.setUTCDate(1);
  end.setUTCMonth(end.getUTCMonth() + months);
  const lastDay = new Date(Date.UTC(end.getUTCFullYear(), end.getUTCMonth() + 1, 0)).getUTCDate();
  end.setUTCDate(Math.min(day, lastDay));
  return end;
}
