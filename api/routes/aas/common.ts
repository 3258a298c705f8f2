import { z } from 'zod';
import type { AasPassportRow } from '../../../src/passport/aas/aas-passports.ts';
import type { AasScope } from '../../../src/passport/aas/aas-repository.ts';
import type { Role } from '../../../src/passport/content/disclosure.ts';
import { type CallerContext, callerRoles } from '../../../src/passport/disclosure/caller-roles.ts';
import { AAS_API_BASE } from '../../../src/standards/aas/aas-result.ts';
import type { AppContext } from '../../context.ts';
import { defineRoute, type RouteSpec } from '../../route.ts';
import type { RouteDeps } from '../deps.ts';
import { allowAnyOrigin, publicEnvironment } from '../resolver/http.ts';

export { AAS_API_BASE };

/** The AAS `Result` every error of this API answers with (api/middleware/problem-handler.ts writes it). */
export const aasResultSchema = z.object({
  messages: z.array(
    z.object({
      code: z.string(),
      messageType: z.literal('Error'),
      text: z.string(),
      timestamp: z.string(),
    }),
  ),
});

const ERRORS = {
  400: {
    description: 'An identifier that is not base64url, a malformed cursor, limit, level or extent.',
    schema: aasResultSchema,
  },
  401: {
    description:
      'A credential that is not valid; or, without a credential, a battery submodel or element that is not public.',
    schema: aasResultSchema,
  },
  403: {
    description: 'A battery submodel or element the roles of the credential sent do not read.',
    schema: aasResultSchema,
  },
  404: { description: 'No such shell, submodel or element.', schema: aasResultSchema },
  429: { description: 'Too many requests from this address.', schema: aasResultSchema },
  503: { description: 'The database cannot be reached right now.', schema: aasResultSchema },
};

export const limitQuery = z.coerce
  .number()
  .int()
  .min(1)
  .max(1_000_000)
  .optional()
  .describe('Page size (1 or more; pages larger than 100 are served as 100, with a cursor to the rest).');
export const cursorQuery = z.string().min(1).max(400).optional().describe('The cursor of the previous page.');
export const levelQuery = z.enum(['deep', 'core']).optional();
export const extentQuery = z.enum(['withBlobValue', 'withoutBlobValue']).optional();
export const identifierParam = z.string().min(1).max(4000);

export const looseJson = z.unknown();
export const pagedSchema = (item: z.ZodType) =>
  z.object({ paging_metadata: z.object({ cursor: z.string().optional() }), result: z.array(item) });

/**
 * Where the environment comes from: test under `/test/api/v3.0`, else x-service-env when sent, else live. Who
 * the caller is: the credential it sent, if any (api/middleware/optional-auth.ts: one that is not valid is a
 * 401/403), and from it, per passport's brand, its disclosure roles (src/passport/disclosure/caller-roles.ts), which
 * decide the battery submodels it is served (docs/aas-api.md). A fresh tap of a chip (its SUN parameters in
 * the query) counts only on operations that name one shell or submodel (`tap`), never on a listing.
 */
export async function aasScope(
  ctx: AppContext,
  deps: RouteDeps,
  options: { tap?: boolean } = {},
): Promise<AasScope> {
  // The router has checked the credential (api/middleware/optional-auth.ts, optionalCredential below).
  const environment = publicEnvironment(ctx);
  const em = deps.orm.em.fork();
  const caller: CallerContext = options.tap
    ? ctx
    : { state: ctx.state as CallerContext['state'], query: {}, querystring: '' };
  const roles = new Map<string, Promise<ReadonlySet<Role>>>();
  return {
    em,
    environment,
    publicBaseUrl: deps.config.publicBaseUrl,
    credential: ctx.state.principal !== undefined,
    // Roles depend on the brand (grants) and, with a tap, on the chip: asked once per request for each.
    rolesFor: (passport: AasPassportRow) => {
      const key = options.tap ? `${passport.companyId} ${passport.chipUid}` : passport.companyId;
      let held = roles.get(key);
      if (!held) {
        held = callerRoles(
          caller,
          { em, secretBox: deps.secretBox },
          { companyId: passport.companyId, environment: passport.environment, chipUid: passport.chipUid },
        ).then((answer) => answer.roles);
        roles.set(key, held);
      }
      return held;
    },
  };
}

export function sendJson(ctx: AppContext, body: unknown): void {
  allowAnyOrigin(ctx);
  ctx.set('Cache-Control', 'no-store');
  // What a caller is served depends on its credential (battery submodels by disclosure role).
  ctx.set('Vary', 'x-service-env, Authorization');
  ctx.status = 200;
  // Set as text: a ValueOnly value may be a bare string or number, which must still go out as JSON.
  ctx.set('Content-Type', 'application/json; charset=utf-8');
  ctx.body = JSON.stringify(body);
}

export function paged(page: { result: unknown[]; cursor?: string }): unknown {
  return { paging_metadata: page.cursor ? { cursor: page.cursor } : {}, result: page.result };
}

const DESCRIPTION =
  'AAS Part 2 HTTP/REST API v3.0 (IDTA-01002), read profiles AssetAdministrationShellRepositoryServiceSpecification/' +
  'SSP-002 and SubmodelRepositoryServiceSpecification/SSP-002. Public, no credential needed; a credential ' +
  '(Authorization: Bearer, API key, OAuth or user token) of a company granted a disclosure role is served the ' +
  'battery submodels that role reads. Live passports under ' +
  '/api/v3.0, test passports under /test/api/v3.0 (or x-service-env: test). Identifiers in paths and queries are ' +
  'base64url-encoded (no padding); errors answer an AAS Result (messages). docs/aas-api.md.';

/** One GET operation of the AAS API: public, documented with the AAS Result for its errors. */
export function aasRoute<Q = undefined, P = undefined>(spec: {
  path: string;
  operationId: string;
  summary: string;
  description?: string;
  query?: z.ZodType<Q>;
  params?: z.ZodType<P>;
  schema: z.ZodType;
  handler: (ctx: AppContext, input: { query: Q; params: P }) => Promise<void>;
}): RouteSpec {
  return defineRoute<undefined, Q, P>({
    method: 'get',
    path: `${AAS_API_BASE}${spec.path}`,
    operationId: spec.operationId,
    summary: spec.summary,
    description: spec.description ? `${spec.description} ${DESCRIPTION}` : DESCRIPTION,
    tags: ['aas-api'],
    auth: 'none',
    // A credential, when sent, decides a battery passport's submodels (docs/aas-api.md).
    optionalCredential: true,
    ...(spec.query ? { query: spec.query } : {}),
    ...(spec.params ? { params: spec.params } : {}),
    responses: { 200: { description: 'The answer.', schema: spec.schema }, ...ERRORS },
    handler: (ctx, { query, params }) => spec.handler(ctx, { query, params }),
  });
}
