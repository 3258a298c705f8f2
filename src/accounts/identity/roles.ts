import type { EntityManager } from '@mikro-orm/postgresql';
import { DomainError } from '../../platform/errors.ts';

/** A user's role in their company (users.role). API keys and OAuth clients act with the company's full rights. */
export const ROLES = ['owner', 'developer', 'viewer'] as const;
export type Role = (typeof ROLES)[number];

/** What each role may do; the credential table in docs/identity.md shows the same. */
export const ROLE_RIGHTS = {
  /** Create and revoke API keys (and, later, OAuth clients and webhooks). */
  manageKeys: ['owner', 'developer'],
  /** Webhook endpoints: create, change, rotate, test, delete; replay dead letters (Settings > Webhooks). */
  manageWebhooks: ['owner', 'developer'],
  /** The company's passports: add, author, import, revoke, transfer; its product settings (Settings > Company). */
  managePassports: ['owner', 'developer'],
  /** Give the company's people their roles (Settings > Team). */
  manageTeam: ['owner'],
  /** Billing (checkout, portal), KYB submission and documents, SSO settings (domains, OIDC/SAML connection). */
  manageCompany: ['owner'],
  /** See the company's keys, people and settings. */
  read: ['owner', 'developer', 'viewer'],
} as const satisfies Record<string, readonly Role[]>;
export type Right = keyof typeof ROLE_RIGHTS;

/** Every right `role` carries: what the console shows a person, so it never offers what the API refuses. */
export function rightsOf(role: Role): Right[] {
  return (Object.keys(ROLE_RIGHTS) as Right[]).filter((right) =>
    (ROLE_RIGHTS[right] as readonly Role[]).includes(role),
  );
}

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}

/** The user's role in the company, or null when the user is not (or no longer) one of its people. */
export async function roleOf(em: EntityManager, userId: number, companyId: string): Promise<Role | null> {
  const [row] = await em.execute<{ role: string }[]>(
    'select role from users where id = ? and company_id = ?',
    [userId, companyId],
  );
  return row && isRole(row.role) ? row.role : null;
}

/** Throws 403 `role_forbidden` unless `role` carries `right`. */
export function assertRight(role: Role | null, right: Right, action: string): void {
  if (role !== null && (ROLE_RIGHTS[right] as readonly Role[]).includes(role)) return;
  const allowed = ROLE_RIGHTS[right].join(' or ');
  throw new DomainError(
    'forbidden',
    'role_forbidden',
    `Only a company's ${allowed} may ${action}; your role is ${role ?? 'none'}.`,
  );
}
