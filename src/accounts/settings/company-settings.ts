import type { EntityManager } from '@mikro-orm/postgresql';
import type { TenantScope } from '../../platform/db/tenant-scope.ts';
import { gs1CheckDigit } from '../../standards/gs1/gtin.ts';

/** Warranty a sale starts when the company has not set its own: the EU legal guarantee for new goods. */
export const DEFAULT_WARRANTY_MONTHS = 24;
export const MAX_WARRANTY_MONTHS = 120;

/** A company's product settings in one environment (table company_settings; no row = the defaults). */
export interface CompanySettings {
  /** Declaration of conformity for mints that bring none (mint shape B, toolbox bind); null = none. */
  defaultConformityUrl: string | null;
  /** Months of warranty a sale (SOLD / INITIAL_SALE) starts. */
  warrantyMonths: number;
  /** The EN 18223 header's economic operator: the company's GLN (13 digits) or EORI; null = not set. */
  economicOperatorId: string | null;
  /** The EN 18223 header's facility: a GLN or an absolute URI naming the producing site; null = none. */
  facilityId: string | null;
}

/** A Global Location Number: 13 digits, the last the GS1 mod-10 check digit of the others. */
export function isValidGln(value: string): boolean {
  return /^\d{13}$/.test(value) && gs1CheckDigit(value.slice(0, 12)) === Number(value[12]);
}

/**
 * An EORI number: the ISO 3166-1 alpha-2 code of the issuing member state (GR for Greece, XI for Northern
 * Ireland) followed by up to 15 letters or digits, in upper case (Commission Implementing Regulation (EU)
 * 2015/2447, Art. 6 and the EORI format of the Union Customs Code).
 */
export function isValidEori(value: string): boolean {
  return /^[A-Z]{2}[0-9A-Z]{1,15}$/.test(value);
}

/** An economic operator id the header can carry: a GLN with its check digit, or an EORI. */
export function isValidEconomicOperatorId(value: string): boolean {
  return isValidGln(value) || isValidEori(value);
}

/** A facility id: a GLN with its check digit, or an absolute URI (http(s) or urn:) without spaces. */
export function isValidFacilityId(value: string): boolean {
  if (/^\d+$/.test(value)) return isValidGln(value);
  return value.length <= 200 && /^(https?:\/\/|urn:)[^\s]+$/i.test(value);
}

interface Row {
  default_conformity_url: string | null;
  warranty_months: number;
  economic_operator_id: string | null;
  facility_id: string | null;
}

const fromRow = (row: Row | undefined): CompanySettings => ({
  defaultConformityUrl: row?.default_conformity_url ?? null,
  warrantyMonths: row?.warranty_months ?? DEFAULT_WARRANTY_MONTHS,
  economicOperatorId: row?.economic_operator_id ?? null,
  facilityId: row?.facility_id ?? null,
});

const COLUMNS = 'default_conformity_url, warranty_months, economic_operator_id, facility_id';

export async function readCompanySettings(em: EntityManager, scope: TenantScope): Promise<CompanySettings> {
  const [row] = await em.execute<Row[]>(
    `select ${COLUMNS} from company_settings where company_id = ? and environment = ?`,
    [scope.companyId, scope.environment],
  );
  return fromRow(row);
}

/**
 * Changes the members given (null clears `defaultConformityUrl`, `economicOperatorId` or `facilityId`) in one
 * statement, so two changes of different members at once both stand; answers the settings as they are now.
 */
export async function updateCompanySettings(
  em: EntityManager,
  scope: TenantScope,
  change: Partial<CompanySettings>,
): Promise<CompanySettings> {
  const setsUrl = change.defaultConformityUrl !== undefined;
  const setsMonths = change.warrantyMonths !== undefined;
  const setsOperator = change.economicOperatorId !== undefined;
  const setsFacility = change.facilityId !== undefined;
  const [row] = await em.execute<Row[]>(
    `insert into company_settings (company_id, environment, default_conformity_url, warranty_months,
       economic_operator_id, facility_id, updated_at)
     values (?, ?, ?, ?, ?, ?, now())
     on conflict (company_id, environment) do update set
       default_conformity_url = case when ? then excluded.default_conformity_url
                                     else company_settings.default_conformity_url end,
       warranty_months = case when ? then excluded.warranty_months else company_settings.warranty_months end,
       economic_operator_id = case when ? then excluded.economic_operator_id
                                   else company_settings.economic_operator_id end,
       facility_id = case when ? then excluded.facility_id else company_settings.facility_id end,
       updated_at = now()
     returning ${COLUMNS}`,
    [
      scope.companyId,
      scope.environment,
      change.defaultConformityUrl ?? null,
      change.warrantyMonths ?? DEFAULT_WARRANTY_MONTHS,
      change.economicOperatorId ?? null,
      change.facilityId ?? null,
      setsUrl,
      setsMonths,
      setsOperator,
      setsFacility,
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
