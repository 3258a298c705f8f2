import { z } from 'zod';
import { callerRoles } from '../../../src/passport/disclosure/caller-roles.ts';
import { evidenceFor } from '../../../src/passport/evidence/evidence-for.ts';
import type { AppContext } from '../../context.ts';
import { requireRight } from '../../middleware/require-right.ts';
import { defineRoute } from '../../route.ts';
import type { RouteDeps } from '../deps.ts';
import { publicPassportDeps } from '../resolver/public-passport-deps.ts';

const bundle = z
  .looseObject({
    format: z.literal('dpp-evidence/1'),
    passport: z.looseObject({ dppId: z.string(), granularity: z.enum(['model', 'batch', 'item']) }),
    issuer: z.looseObject({ did: z.string(), didDocuments: z.array(z.unknown()) }),
    versions: z.array(z.unknown()),
    credentials: z.array(z.unknown()),
    events: z.array(z.unknown()),
    manifest: z.looseObject({ issuedAt: z.string(), parts: z.array(z.unknown()), jws: z.string() }),
  })
  .describe(
    'The evidence bundle (docs/evidence.md): check it with `npm run cli -- verify-evidence FILE --rpc URL`.',
  );

/** GET /v1/dpps/{dppId}/evidence: a passport's evidence bundle, for its brand and the authorities. */
export function dppEvidenceRoutes(deps: RouteDeps) {
  return [
    defineRoute({
      method: 'get',
      path: '/v1/dpps/:dppId/evidence',
      operationId: 'readDPPEvidence',
      summary:
        'A passport’s evidence bundle: every version, signatures, DID documents, anchored events, signed manifest.',
      description:
        'One JSON file a regulator verifies offline with only a chain node (docs/evidence.md). Item, model and ' +
        'batch passports of the credential’s environment. The brand’s credentials (API key, OAuth client, its ' +
        'people) and those of a company in the register of authorities (docs/disclosure.md) read it; any other ' +
        'company → 404, as if the passport did not exist.',
      tags: ['dpps'],
      auth: 'apiKeyOrUser',
      params: z.object({
        dppId: z.string().min(1).max(200).describe('The digitalProductPassportId (urn:uuid:…) or its UUID.'),
      }),
      responses: {
        400: { description: 'invalid_dpp_id.' },
        404: {
          description: 'dpp_not_found (also another company’s passport, unless the caller is an authority).',
        },
        200: { description: 'The bundle.', schema: bundle },
      },
      handler: async (ctx: AppContext, { params }) => {
        await requireRight(ctx, 'read', 'read passport evidence');
        const scope = ctx.state.scope!;
        const em = deps.orm.em.fork();
        const evidence = await evidenceFor(
          { em, keyring: publicPassportDeps(deps).issuer.keyring, publicBaseUrl: deps.config.publicBaseUrl },
          {
            environment: scope.environment,
            dppId: params.dppId,
            mayRead: async (brand) =>
              brand === scope.companyId ||
              (
                await callerRoles(
                  ctx,
                  { em: deps.orm.em.fork(), secretBox: deps.secretBox },
                  { companyId: brand, environment: scope.environment },
                )
              ).roles.has('authority'),
          },
        );
        ctx.set('Cache-Control', 'no-store');
        ctx.set(
          'Content-Disposition',
          `attachment; filename="evidence-${evidence.passport.dppId.replace(/^urn:uuid:/, '')}.json"`,
        );
        ctx.body = evidence;
      },
    }),
  ];
}
