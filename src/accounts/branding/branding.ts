import { createHash } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { TenantScope } from '../../platform/db/tenant-scope.ts';
import { DomainError } from '../../platform/errors.ts';
import { AA_CONTRAST, contrastRatio, darkenedForWhite, WHITE } from './colour-contrast.ts';
import { type LogoType, sniffLogo } from './logo-image.ts';

/** A company's branding of its verification pages in one environment (table company_branding; no row: none). */
export interface Branding {
  /** The name the page's header shows; null: the passport's manufacturer name, else the company's name. */
  displayName: string | null;
  /** The header's background (`#rrggbb`); its text is white or ink, whichever contrasts more. */
  brandColor: string | null;
  /** Links and buttons on white (`#rrggbb`): must reach 4.5:1 against white (WCAG AA). */
  linkColor: string | null;
  /** The language the company writes its passports' texts in (name, description, care instructions). */
  defaultLanguage: string;
  careUrl: string | null;
  repairUrl: string | null;
  resaleUrl: string | null;
  recyclingUrl: string | null;
  contactEmail: string | null;
  contactUrl: string | null;
  /** The stored logo's SHA-256 (hex) and type; null: no logo. */
  logo: { hash: string; type: LogoType } | null;
}

export type BrandingChange = Partial<Omit<Branding, 'logo'>>;

interface Row {
  display_name: string | null;
  brand_color: string | null;
  link_color: string | null;
  default_language: string;
  care_url: string | null;
  repair_url: string | null;
  resale_url: string | null;
  recycling_url: string | null;
  contact_email: string | null;
  contact_url: string | null;
  logo_hash: string | null;
  logo_type: LogoType | null;
}

const FIELDS = {
  displayName: 'display_name',
  brandColor: 'brand_color',
  linkColor: 'link_color',
  defaultLanguage: 'default_language',
  careUrl: 'care_url',
  repairUrl: 'repair_url',
  resaleUrl: 'resale_url',
  recyclingUrl: 'recycling_url',
  contactEmail: 'contact_email',
  contactUrl: 'contact_url',
} as const satisfies Record<keyof BrandingChange, keyof Row>;

const COLUMNS = [...Object.values(FIELDS), 'logo_hash', 'logo_type'].join(', ');

export const NO_BRANDING: Branding = {
  displayName: null,
  brandColor: null,
  linkColor: null,
  defaultLanguage: 'en',
  careUrl: null,
  repairUrl: null,
  resaleUrl: null,
  recyclingUrl: null,
  contactEmail: null,
  contactUrl: null,
  logo: null,
};

function fromRow(row: Row | undefined): Branding {
  if (!row) return NO_BRANDING;
  const branding = { ...NO_BRANDING };
  for (const [field, column] of Object.entries(FIELDS)) {
    (branding as Record<string, unknown>)[field] = row[column];
  }
  branding.logo = row.logo_hash && row.logo_type ? { hash: row.logo_hash, type: row.logo_type } : null;
  return branding;
}

/** The branding of a company in an environment: for its own reads and for its public pages alike. */
export async function readBranding(em: EntityManager, scope: TenantScope): Promise<Branding> {
  const [row] = await em.execute<Row[]>(
    `select ${COLUMNS} from company_branding where company_id = ? and environment = ?`,
    [scope.companyId, scope.environment],
  );
  return fromRow(row);
}

/** A link colour that fails AA on white is refused, with the nearest darker colour that passes. */
export function assertLinkColor(color: string): void {
  const ratio = contrastRatio(color, WHITE);
  if (ratio < AA_CONTRAST) {
    throw new DomainError(
      'rejected',
      'colour_contrast',
      `linkColor ${color} has a contrast of ${ratio.toFixed(2)}:1 against the page’s white; links and buttons need ` +
        `at least ${AA_CONTRAST}:1 (WCAG AA). ${darkenedForWhite(color)} is the nearest darker colour that passes.`,
    );
  }
}

/** Changes the members given (null clears one) in one statement; answers the branding as it is now. */
export async function updateBranding(
  em: EntityManager,
  scope: TenantScope,
  change: BrandingChange,
): Promise<Branding> {
  if (change.linkColor) assertLinkColor(change.linkColor);
  const given = (Object.keys(FIELDS) as (keyof BrandingChange)[]).filter(
    (field) => change[field] !== undefined,
  );
  const columns = given.map((field) => FIELDS[field]);
  const values = given.map((field) => change[field] ?? null);
  const insertColumns = ['company_id', 'environment', ...columns].join(', ');
  const placeholders = ['?', '?', ...columns.map(() => '?')].join(', ');
  const updates = [...columns.map((column) => `${column} = excluded.${column}`), 'updated_at = now()'].join(
    ', ',
  );
  const [row] = await em.execute<Row[]>(
    `insert into company_branding (${insertColumns}) values (${placeholders})
     on conflict (company_id, environment) do update set ${updates}
     returning ${COLUMNS}`,
    [scope.companyId, scope.environment, ...values],
  );
  return fromRow(row);
}

/** Stores a logo (its type sniffed from its bytes, unsafe SVG refused), replacing the one before. */
export async function setLogo(em: EntityManager, scope: TenantScope, bytes: Uint8Array): Promise<Branding> {
  const type = sniffLogo(bytes);
  const hash = createHash('sha256').update(bytes).digest('hex');
  const [row] = await em.execute<Row[]>(
    `insert into company_branding (company_id, environment, logo, logo_type, logo_hash) values (?, ?, ?, ?, ?)
     on conflict (company_id, environment) do update
       set logo = excluded.logo, logo_type = excluded.logo_type, logo_hash = excluded.logo_hash, updated_at = now()
     returning ${COLUMNS}`,
    [scope.companyId, scope.environment, Buffer.from(bytes), type, hash],
  );
  return fromRow(row);
}

export async function removeLogo(em: EntityManager, scope: TenantScope): Promise<Branding> {
  await em.execute(
    `update company_branding set logo = null, logo_type = null, logo_hash = null, updated_at = now()
     where company_id = ? and environment = ?`,
    [scope.companyId, scope.environment],
  );
  return readBranding(em, scope);
}

/** A stored logo by its hash, for the public pages (any company's: the hash is in their HTML). */
export async function logoByHash(
  em: EntityManager,
  hash: string,
): Promise<{ bytes: Buffer; type: LogoType } | undefined> {
  const [row] = await em.execute<{ logo: Buffer; logo_type: LogoType }[]>(
    'select logo, logo_type from company_branding where logo_hash = ? and logo is not null limit 1',
    [hash],
  );
  return row ? { bytes: row.logo, type: row.logo_type } : undefined;
}
