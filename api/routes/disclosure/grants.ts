import { z } from 'zod';
import {
  type DisclosureGrant,
  GRANTABLE_ROLES,
  grantRole,
  listGrants,
  listReceivedGrants,
  revokeGrant,
} from '../../../src/passport/disclosure/grants.ts';
import { DomainError } from '../../../src/platform/errors.ts';
import type { AppContext } from '../../context.ts';
import { requireRight } from '../../middleware/require-right.ts';
import { defineRoute } from '../../route.ts';
import type { RouteDeps } from '../deps.ts';

// Role grants (issue 25, docs/disclosure.md): a brand lets another company read its passports' restricted
// product-group data as a repairer, recycler or notified body.

const grant = z.object({
  id: z.uuid(),
  granteeCompanyId: z.uuid(),
  role: z.enum(GRANTABLE_ROLES),
  createdAt: z.string(),
});

const PEOPLE =
  'With the company’s API key or OAuth client token, or a person’s user token / console session (granting ' +
  'and revoking: owners only; listing: every role). Grants are per environment (x-service-env) and cover ' +
  'every passport of the company in it. docs/disclosure.md.';

const view = (g: DisclosureGrant) => ({
  id: g.id,
  granteeCompanyId: g.granteeCompanyId,
  role: g.role,
  createdAt: g.createdAt.toISOString(),
});

export function disclosureGrantRoutes(deps: RouteDeps) {
  return [
    defineRoute({
      method: 'post',
      path: '/v1/disclosure-grants',
      operationId: 'createDisclosureGrant',
      summary:
        'Grant another company a disclosure role (repairer, recycler, notifiedBody) for your passports.',
      description:
        `${PEOPLE} The grantee’s API keys, OAuth clients and people then read, on every representation of ` +
        'your passports, the fields the content specification’s policy gives that role. Idempotent: an active ' +
        'grant of the same role to the same company is answered again (200). authority is kept by the ' +
        'platform operator’s register, customer is proven by a tap of the chip: neither is granted here.',
      tags: ['disclosure'],
      auth: 'apiKeyOrUser',
      body: z
        .object({
          granteeCompanyId: z.uuid({ message: 'granteeCompanyId is a company id (UUID)' }),
          role: z.enum(GRANTABLE_ROLES),
        })
        .strict(),
      responses: {
        200: { description: 'Already granted.', schema: z.object({ success: z.literal(true), grant }) },
        201: { description: 'Granted.', schema: z.object({ success: z.literal(true), grant }) },
        400: { description: 'validation_failed, grant_to_self.' },
        403: { description: 'environment_mismatch, or role_forbidden (not an owner).' },
        404: { description: 'company_not_found: no company with granteeCompanyId.' },
      },
      handler: async (ctx: AppContext, { body }) => {
        await requireRight(ctx, 'manageCompany', 'grant disclosure roles');
        const scope = ctx.state.scope!;
        if (body.granteeCompanyId === scope.companyId) {
          throw new DomainError(
            'invalid',
            'grant_to_self',
            'Your own company reads all of its passports already.',
          );
        }
        const em = deps.orm.em.fork();
        const [company] = await em.execute<{ id: string }[]>('select id from companies where id = ?', [
          body.granteeCompanyId,
        ]);
        if (!company) {
          throw new DomainError('not_found', 'company_not_found', `No company ${body.granteeCompanyId}.`);
        }
        const { grant: granted, created } = await grantRole(em, scope, body.granteeCompanyId, body.role);
        ctx.status = created ? 201 : 200;
        ctx.set('Cache-Control', 'no-store');
        ctx.body = { success: true, grant: view(granted) };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/v1/disclosure-grants',
      operationId: 'listDisclosureGrants',
      summary: 'The disclosure roles your company has granted (active ones, oldest first).',
      description: PEOPLE,
      tags: ['disclosure'],
      auth: 'apiKeyOrUser',
      responses: {
        200: {
          description: 'The active grants.',
          schema: z.object({ success: z.literal(true), grants: z.array(grant) }),
        },
      },
      handler: async (ctx: AppContext) => {
        await requireRight(ctx, 'read', 'see the disclosure grants');
        const grants = await listGrants(deps.orm.em.fork(), ctx.state.scope!);
        ctx.set('Cache-Control', 'no-store');
        ctx.body = { success: true, grants: grants.map(view) };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/v1/disclosure-grants/received',
      operationId: 'listReceivedDisclosureGrants',
      summary: 'The disclosure roles other companies (brands) have granted your company (active ones).',
      description:
        'What your API keys, OAuth clients and people may read beyond the public fields: per brand, the role ' +
        'it granted (its passports of this environment). The authority role from the platform’s register is ' +
        'not listed here. docs/disclosure.md.',
      tags: ['disclosure'],
      auth: 'apiKeyOrUser',
      responses: {
        200: {
          description: 'The grants received, oldest first.',
          schema: z.object({
            success: z.literal(true),
            grants: z.array(grant.extend({ brandCompanyId: z.uuid(), brandName: z.string() })),
          }),
        },
      },
      handler: async (ctx: AppContext) => {
        await requireRight(ctx, 'read', 'see the disclosure grants');
        const grants = await listReceivedGrants(deps.orm.em.fork(), ctx.state.scope!);
        ctx.set('Cache-Control', 'no-store');
        ctx.body = {
          success: true,
          grants: grants.map((g) => ({
            ...view(g),
            brandCompanyId: g.brandCompanyId,
            brandName: g.brandName,
          })),
        };
      },
    }),
    defineRoute({
      method: 'delete',
      path: '/v1/disclosure-grants/:id',
      operationId: 'revokeDisclosureGrant',
      summary: 'Revoke a disclosure grant: the grantee reads only public data from the next request on.',
      description: PEOPLE,
      tags: ['disclosure'],
      auth: 'apiKeyOrUser',
      params: z.object({ id: z.uuid({ message: 'grant ids are UUIDs' }) }),
      responses: {
        204: { description: 'Revoked.' },
        403: { description: 'environment_mismatch, or role_forbidden (not an owner).' },
        404: { description: 'disclosure_grant_not_found (none active with this id in your company).' },
      },
      handler: async (ctx: AppContext, { params }) => {
        await requireRight(ctx, 'manageCompany', 'revoke disclosure grants');
        if (!(await revokeGrant(deps.orm.em.fork(), ctx.state.scope!, params.id))) {
          throw new DomainError(
            'not_found',
            'disclosure_grant_not_found',
            `No active disclosure grant ${params.id} in this environment.`,
          );
        }
        ctx.status = 204;
      },
    }),
  ];
}
