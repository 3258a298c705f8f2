import { z } from 'zod';
import { companyOverview, ENVIRONMENTS } from '../../../src/lifecycle/overview/company-overview.ts';
import { runningMintCounts } from '../../../src/lifecycle/overview/mint-counts.ts';
import type { AppContext } from '../../context.ts';
import { requireRight } from '../../middleware/require-right.ts';
import { defineRoute, type RouteSpec } from '../../route.ts';
import type { RouteDeps } from '../deps.ts';

const count = z.number().int().nonnegative();
const perEnvironment = <T extends z.ZodType>(schema: T) => z.object({ test: schema, live: schema });

const overview = z.object({
  success: z.literal(true),
  passports: perEnvironment(
    z
      .object({
        active: count,
        suspended: count,
        archived: count,
        recycled: count,
        revoked: count,
        total: count,
      })
      .describe(
        'Passports by the state the public sees (RECYCLED before REVOKED before ARCHIVED/SUSPENDED).',
      ),
  ),
  mints: perEnvironment(z.object({ running: count, needAttention: count }))
    .nullable()
    .describe(
      'Mints under way (Temporal visibility, eventually consistent); null without a workflow service.',
    ),
  attention: perEnvironment(
    z.object({
      deadLetters: count,
      retryingDeliveries: count,
      disabledEndpoints: count,
      registryRefused: count,
      backupsStuck: count,
    }),
  ),
  checklist: z
    .object({
      apiKey: z.boolean(),
      testPassport: z.boolean(),
      webhookEndpoint: z.boolean(),
      verificationSubmitted: z.boolean(),
      liveKey: z.boolean(),
    })
    .describe('The onboarding steps, each true once done.'),
});

/** The console's landing page in one read: the company's passports, mints, what needs attention, onboarding. */
export function consoleOverviewRoutes(deps: RouteDeps): RouteSpec[] {
  return [
    defineRoute({
      method: 'get',
      path: '/v1/console/overview',
      operationId: 'consoleOverview',
      summary:
        'The company at a glance, both environments: passports by state, mints, attention, onboarding.',
      description:
        'Counts only (over indexes, whatever the number of passports), for the signed-in person’s company in ' +
        'the test and the live environment at once, whatever x-service-env says. The checklist: an API key ' +
        'exists, a test passport, a webhook endpoint, a business verification submitted (KYB), a live API key.',
      tags: ['console'],
      auth: 'user',
      responses: { 200: { description: 'The overview.', schema: overview } },
      handler: async (ctx: AppContext) => {
        await requireRight(ctx, 'read', 'see the overview');
        const { companyId } = ctx.state.scope!;
        const counts = await companyOverview(deps.orm.em.fork(), companyId);
        const mints = deps.workflows
          ? await runningMintCounts(deps.workflows.client, companyId, ENVIRONMENTS)
          : null;
        ctx.set('Cache-Control', 'no-store');
        ctx.body = { success: true, ...counts, mints };
      },
    }),
  ];
}
