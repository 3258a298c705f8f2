import type { EntityManager } from '@mikro-orm/postgresql';
import type { Environment } from '../../platform/config/config.ts';
import type { Role } from '../content/disclosure.ts';

/**
 * Roles one company (the brand) grants another for all of the brand's passports of an environment, and the
 * platform's register of authorities (docs/disclosure.md). Raw statements bypass the ORM's tenant filter, so
 * each names the companies itself. Tables: disclosure_grants, disclosure_authorities
 * (Migration20261126100000_disclosure_grants).
 */

/** The roles a brand may grant: `authority` comes from the platform's register, `customer` from a chip tap. */
export const GRANTABLE_ROLES = ['repairer', 'recycler', 'notifiedBody'] as const;
export type GrantableRole = (typeof GRANTABLE_ROLES)[number];

export interface DisclosureGrant {
  id: string;
  granteeCompanyId: string;
  role: GrantableRole;
  createdAt: Date;
}

interface GrantRow {
  id: string;
  grantee_company_id: string;
  role: GrantableRole;
  created_at: Date | string;
}

const toGrant = (row: GrantRow): DisclosureGrant => ({
  id: row.id,
  granteeCompanyId: row.grantee_company_id,
  role: row.role,
  createdAt: row.created_at instanceof Date ? row.created_at : new Date(row.created_at),
});

/** Grants the role (idempotent: an active grant of the same role to the same company is answered again). */
export async function grantRole(
  em: EntityManager,
  brand: { companyId: string; environment: Environment },
  granteeCompanyId: string,
  role: GrantableRole,
): Promise<{ grant: DisclosureGrant; created: boolean }> {
  const inserted = await em.execute<GrantRow[]>(
    `insert into disclosure_grants (company_id, environment, grantee_company_id, role)
     values (?, ?, ?, ?)
     on conflict (company_id, environment, grantee_company_id, role) where revoked_at is null do nothing
     returning id, grantee_company_id, role, created_at`,
    [brand.companyId, brand.environment, granteeCompanyId, role],
  );
  if (inserted[0]) return { grant: toGrant(inserted[0]), created: true };
  const [existing] = await em.execute<GrantRow[]>(
    `select id, grantee_company_id, role, created_at from disclosure_grants
     where company_id = ? and environment = ? and grantee_company_id = ? and role = ? and revoked_at is null`,
    [brand.companyId, brand.environment, granteeCompanyId, role],
  );
  return { grant: toGrant(existing!), created: false };
}

/** The brand's active grants, oldest first. */
export async function listGrants(
  em: EntityManager,
  brand: { companyId: string; environment: Environment },
): Promise<DisclosureGrant[]> {
  const rows = await em.execute<GrantRow[]>(
    `select id, grantee_company_id, role, created_at from disclosure_grants
     where company_id = ? and environment = ? and revoked_at is null order by created_at, id limit 1000`,
    [brand.companyId, brand.environment],
  );
  return rows.map(toGrant);
}

/** The active grants other companies made to `grantee` in the environment, oldest first (with the brand's name). */
export async function listReceivedGrants(
  em: EntityManager,
  grantee: { companyId: string; environment: Environment },
): Promise<(DisclosureGrant & { brandCompanyId: string; brandName: string })[]> {
  const rows = await em.execute<(GrantRow & { company_id: string; name: string })[]>(
    `select g.id, g.grantee_company_id, g.role, g.created_at, g.company_id, c.name
     from disclosure_grants g join companies c on c.id = g.company_id
     where g.grantee_company_id = ? and g.environment = ? and g.revoked_at is null
     order by g.created_at, g.id limit 1000`,
    [grantee.companyId, grantee.environment],
  );
  return rows.map((row) => ({ ...toGrant(row), brandCompanyId: row.company_id, brandName: row.name }));
}

/** Revokes one of the brand's active grants; false when there is none with this id. */
export async function revokeGrant(
  em: EntityManager,
  brand: { companyId: string; environment: Environment },
  grantId: string,
): Promise<boolean> {
  const rows = await em.execute<{ id: string }[]>(
    `update disclosure_grants set revoked_at = now()
     where id = ? and company_id = ? and environment = ? and revoked_at is null returning id`,
    [grantId, brand.companyId, brand.environment],
  );
  return rows.length > 0;
}

/**
 * The roles `callerCompanyId` holds for the brand's passports of the environment: those the brand granted it
 * (active grants) and `authority` when it is in the platform's register.
 */
export async function grantedRoles(
  em: EntityManager,
  brand: { companyId: string; environment: Environment },
  callerCompanyId: string,
): Promise<Role[]> {
  const rows = await em.execute<{ role: Role }[]>(
    `select role from disclosure_grants
     where company_id = ? and environment = ? and grantee_company_id = ? and revoked_at is null
     union
     select 'authority' as role from disclosure_authorities where company_id = ?`,
    [brand.companyId, brand.environment, callerCompanyId, callerCompanyId],
  );
  return rows.map((row) => row.role);
}

/** Puts a company in the platform's register of authorities (market surveillance, the Commission). */
export async function registerAuthority(
  em: EntityManager,
  companyId: string,
  note: string,
): Promise<boolean> {
  const rows = await em.execute<{ company_id: string }[]>(
    `insert into disclosure_authorities (company_id, note) values (?, ?)
     on conflict (company_id) do nothing returning company_id`,
    [companyId, note],
  );
  return rows.length > 0;
}

/** Takes a company off the register; false when it was not on it. */
export async function unregisterAuthority(em: EntityManager, companyId: string): Promise<boolean> {
  const rows = await em.execute<{ company_id: string }[]>(
    'delete from disclosure_authorities where company_id = ? returning company_id',
    [companyId],
  );
  return rows.length > 0;
}

/** The register, oldest first. */
export async function listAuthorities(
  em: EntityManager,
): Promise<{ companyId: string; note: string; registeredAt: Date }[]> {
  const rows = await em.execute<{ company_id: string; note: string; registered_at: Date | string }[]>(
    'select company_id, note, registered_at from disclosure_authorities order by registered_at limit 10000',
  );
  return rows.map((row) => ({
    companyId: row.company_id,
    note: row.note,
    registeredAt: new Date(row.registered_at),
  }));
}
