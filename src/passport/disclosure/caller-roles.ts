import type { EntityManager } from '@mikro-orm/postgresql';
import { roleOf } from '../../accounts/identity/roles.ts';
import type { Environment } from '../../platform/config/config.ts';
import type { SecretBox } from '../../platform/secret-box.ts';
import { ROLES, type Role } from '../content/disclosure.ts';
import { hasSunParameters, verifyPassportTap } from '../views/tap.ts';
import type { TapVerdict } from '../views/tap-verdict.ts';
import { grantedRoles } from './grants.ts';

/**
 * Which disclosure roles a request's caller holds for one passport (issue 25, docs/disclosure.md):
 * - everyone: `public`;
 * - the passport's own company (its API key, OAuth client token, user token or console session, in the
 *   passport's environment): the operator, every role (`owner: true`);
 * - another company's credential: the roles the brand granted that company (disclosure_grants) and
 *   `authority` when the platform's register lists it (disclosure_authorities);
 * - a fresh tap of the passport's chip on this request (the SUN parameters of the tapped URL in the query:
 *   picc_data & cmac, or e & c): `customer`, when the signature verifies and its read counter is above the
 *   last one accepted (the counter is then accepted, so the same tap replayed does not unlock again).
 */
export interface CallerRoles {
  roles: ReadonlySet<Role>;
  /** The passport's own company: reads everything. */
  owner: boolean;
  /** The verdict of the tap the request carried, when it carried one. */
  tap?: TapVerdict;
}

/** What the auth middleware leaves in `ctx.state.principal` (api/context.ts Principal), as far as needed. */
export interface CallerPrincipal {
  kind: 'apiKey' | 'user' | 'oauth';
  companyId: string;
  environment: Environment;
  /** A person's id (kind 'user'): their tokens act for the company only while they are one of its people. */
  userId?: number;
}

/** The parts of a Koa request context read here (api/context.ts AppContext fits). */
export interface CallerContext {
  state: { principal?: CallerPrincipal | undefined };
  query: Record<string, unknown>;
  querystring: string;
}

/**
 * The passport asked for: its brand (company) and environment; for the customer's tap its chip, given as
 * `chipUid` or looked up by `passportId` (only when the request carries SUN parameters).
 */
export interface DisclosedPassport {
  companyId: string;
  environment: Environment;
  chipUid?: string | null | undefined;
  passportId?: number | undefined;
}

export interface CallerRolesDeps {
  /** Unscoped: grants and the chip are read across tenants (the statements name the companies). */
  em: EntityManager;
  secretBox: SecretBox;
}

/** Only what anybody reads: for representations that never take a credential. */
export const PUBLIC_ONLY: CallerRoles = { roles: new Set<Role>(['public']), owner: false };

/** The operator's view (the passport's own company). */
export const OWNER: CallerRoles = { roles: new Set<Role>(ROLES), owner: true };

/**
 * The caller's roles for `passport`. Authenticate first (the route's auth, or api/middleware/optional-auth.ts
 * on public routes): only `ctx.state.principal` is read. A tap is verified only when the query carries SUN
 * parameters and the passport has a chip; it counts as a verification of the chip like any tap.
 */
export async function callerRoles(
  ctx: CallerContext,
  deps: CallerRolesDeps,
  passport: DisclosedPassport,
): Promise<CallerRoles> {
  const company = await actingCompany(deps.em, ctx.state.principal, passport.environment);
  if (company === passport.companyId) return OWNER;
  const roles = new Set<Role>(['public']);
  if (company) {
    for (const role of await grantedRoles(deps.em, passport, company)) roles.add(role);
  }
  let tap: TapVerdict | undefined;
  if (hasSunParameters(ctx.query)) {
    const chipUid = passport.chipUid ?? (await chipOf(deps.em, passport));
    tap = chipUid
      ? await verifyPassportTap(
          deps.em,
          deps.secretBox,
          { companyId: passport.companyId, environment: passport.environment, chipUid },
          ctx.querystring,
        )
      : 'forged';
    if (tap === 'authentic') roles.add('customer');
  }
  return { roles, owner: false, ...(tap ? { tap } : {}) };
}

async function chipOf(em: EntityManager, passport: DisclosedPassport): Promise<string | undefined> {
  if (passport.passportId === undefined) return undefined;
  const [row] = await em.execute<{ chip_uid: string | null }[]>(
    'select chip_uid from passports where id = ? and company_id = ? and environment = ?',
    [passport.passportId, passport.companyId, passport.environment],
  );
  return row?.chip_uid ?? undefined;
}

/**
 * The company a principal acts for in the environment: its key's or client's; a person's only while they still
 * belong to it (a user token outlives a removal from the team until it expires).
 */
async function actingCompany(
  em: EntityManager,
  principal: CallerPrincipal | undefined,
  environment: Environment,
): Promise<string | undefined> {
  if (!principal || principal.environment !== environment) return undefined;
  if (principal.kind === 'user' && principal.userId !== undefined) {
    if ((await roleOf(em, principal.userId, principal.companyId)) === null) return undefined;
  }
  return principal.companyId;
}
