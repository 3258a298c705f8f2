import { z } from 'zod';
import { ROLES } from '../../../src/identity/roles.ts';
import { changeMemberRole, listMembers } from '../../../src/identity/team.ts';
import type { AppContext } from '../../context.ts';
import { requireRight } from '../../middleware/require-right.ts';
import { defineRoute, type RouteSpec } from '../../route.ts';

const member = z.object({
  id: z.number().int(),
  email: z.string(),
  role: z.enum(ROLES),
  emailConfirmed: z.boolean(),
  createdAt: z.iso.datetime(),
});

const PEOPLE_ONLY =
  ' Takes a person of the company (a user token or the console session), not an API key: a team is people.';

/** Settings > Team: the company's people and their roles (owner, developer, viewer). */
export const teamRoutes: RouteSpec[] = [
  defineRoute({
    method: 'get',
    path: '/v1/team/members',
    operationId: 'listTeamMembers',
    summary: 'The company’s people with their roles, oldest first.',
    description: `Any role may see the team.${PEOPLE_ONLY}`,
    tags: ['team'],
    auth: 'user',
    responses: {
      200: {
        description: 'The team.',
        schema: z.object({ success: z.literal(true), members: z.array(member) }),
      },
    },
    handler: async (ctx: AppContext) => {
      await requireRight(ctx, 'read', 'see the team');
      ctx.body = { success: true, members: await listMembers(ctx.state.em!, ctx.state.scope!.companyId) };
    },
  }),
  defineRoute({
    method: 'patch',
    path: '/v1/team/members/:id',
    operationId: 'changeTeamMemberRole',
    summary: 'Give a person of the company another role (owners only).',
    description:
      'Takes effect on the person’s next request, console sessions included. The company always keeps an ' +
      `owner: demoting the last one → 409 last_owner.${PEOPLE_ONLY}`,
    tags: ['team'],
    auth: 'user',
    params: z.object({ id: z.string().regex(/^[1-9]\d{0,9}$/, 'a member id is a positive integer') }),
    body: z.object({ role: z.enum(ROLES) }).strict(),
    responses: {
      200: { description: 'Changed.', schema: z.object({ success: z.literal(true), member }) },
      403: { description: 'role_forbidden: only owners give roles (or environment_mismatch).' },
      404: { description: 'member_not_found: no such person in this company.' },
      409: { description: 'last_owner.' },
    },
    handler: async (
      ctx: AppContext,
      { params, body }: { params: { id: string }; body: { role: (typeof ROLES)[number] } },
    ) => {
      await requireRight(ctx, 'manageTeam', 'give roles');
      const changed = await changeMemberRole(
        ctx.state.em!,
        ctx.state.scope!.companyId,
        Number(params.id),
        body.role,
      );
      ctx.state.log.info({ memberId: changed.id, role: changed.role }, 'team role changed');
      ctx.body = { success: true, member: changed };
    },
  }),
];
