import { z } from 'zod';
import { ROLES } from '../../../src/accounts/identity/roles.ts';
import {
  changeMemberRole,
  INVITATION_DAYS,
  inviteMember,
  listMembers,
  removeMember,
} from '../../../src/accounts/identity/team.ts';
import { smtpMailer } from '../../../src/adapters/mail/mailer.ts';
import type { AppContext } from '../../context.ts';
import { requireRight } from '../../middleware/require-right.ts';
import { Problem } from '../../problem.ts';
import { defineRoute, type RouteSpec } from '../../route.ts';
import type { RouteDeps } from '../deps.ts';

const member = z.object({
  id: z.number().int(),
  email: z.string(),
  role: z.enum(ROLES),
  emailConfirmed: z.boolean(),
  createdAt: z.iso.datetime(),
});

const PEOPLE_ONLY =
  ' Takes a person of the company (a user token or the console session), not an API key: a team is people.';

/** Settings > Team: the company's people and their roles (owner, developer, viewer); owners invite people. */
export function teamRoutes(deps: RouteDeps): RouteSpec[] {
  const mailer = smtpMailer(deps.config.identity.smtpUrl, deps.config.identity.mailFrom);
  return [
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
    defineRoute({
      method: 'delete',
      path: '/v1/team/members/:id',
      operationId: 'removeTeamMember',
      summary: 'Remove a person from the company (owners only): their account and console sessions end.',
      description:
        'The person’s account is deleted with its console sessions (they end at once), passkeys, SSO links and ' +
        'unused mail links; API keys and everything else of the company stay. A user token they still hold ' +
        'carries no role any more (403 role_forbidden) until it expires. The company always keeps an owner: ' +
        `removing the last one → 409 last_owner.${PEOPLE_ONLY}`,
      tags: ['team'],
      auth: 'user',
      params: z.object({ id: z.string().regex(/^[1-9]\d{0,9}$/, 'a member id is a positive integer') }),
      responses: {
        200: { description: 'Removed.', schema: z.object({ success: z.literal(true), member }) },
        403: { description: 'role_forbidden: only owners remove people (or environment_mismatch).' },
        404: { description: 'member_not_found: no such person in this company.' },
        409: { description: 'last_owner.' },
      },
      handler: async (ctx: AppContext, { params }: { params: { id: string } }) => {
        await requireRight(ctx, 'manageTeam', 'remove people');
        const removed = await removeMember(ctx.state.em!, ctx.state.scope!.companyId, Number(params.id));
        ctx.state.log.info({ memberId: removed.id }, 'team member removed');
        ctx.body = { success: true, member: removed };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/v1/team/invitations',
      operationId: 'inviteTeamMember',
      summary:
        'Invite a person into the company with a role (owners only): they get a mail to set a password.',
      description:
        `The mail's link (to the console's /console/reset-password; without JavaScript, /reset-password) works once, for ${INVITATION_DAYS} days, sets the password and ` +
        'confirms the address; the person then signs in to the console with the role given. Inviting again ' +
        'someone who has not set a password yet sends a new link. An address with an account → 409.' +
        PEOPLE_ONLY,
      tags: ['team'],
      auth: 'user',
      body: z.object({ email: z.email().max(254), role: z.enum(ROLES) }).strict(),
      responses: {
        201: {
          description: 'Invited; the mail is on its way.',
          schema: z.object({ success: z.literal(true), member }),
        },
        403: { description: 'role_forbidden: only owners invite (or environment_mismatch).' },
        409: { description: 'email_already_registered.' },
        503: { description: 'Mail cannot be sent (no SMTP configured); nothing was created.' },
      },
      handler: async (
        ctx: AppContext,
        { body }: { body: { email: string; role: (typeof ROLES)[number] } },
      ) => {
        await requireRight(ctx, 'manageTeam', 'invite people');
        const principal = ctx.state.principal as { email: string; companyId: string };
        const [company] = await deps.orm.em
          .fork()
          .execute<{ name: string }[]>('select name from companies where id = ?', [principal.companyId]);
        if (!company) throw new Problem(404, 'not_found', 'The company no longer exists.');
        const invited = await inviteMember(deps.orm.em, mailer, {
          companyId: principal.companyId,
          companyName: company.name,
          invitedBy: principal.email,
          email: body.email,
          role: body.role,
          passwordUrl: (token) =>
            `${deps.config.publicBaseUrl}/console/reset-password?token=${encodeURIComponent(token)}`,
          consoleUrl: `${deps.config.publicBaseUrl}/console`,
        });
        ctx.state.log.info({ memberId: invited.id, role: invited.role }, 'team member invited');
        ctx.status = 201;
        ctx.body = { success: true, member: invited };
      },
    }),
  ];
}
