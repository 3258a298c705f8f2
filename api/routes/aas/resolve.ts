import { z } from 'zod';
import { resolveShell } from '../../../src/passport/aas/resolve.ts';
import type { AppContext } from '../../context.ts';
import { defineRoute } from '../../route.ts';
import type { RouteDeps } from '../deps.ts';

const reference = z.object({
  type: z.literal('ExternalReference'),
  keys: z.array(z.object({ type: z.literal('GlobalReference'), value: z.string() })),
});

const shellResponse = z.object({
  success: z.literal(true),
  id: z.string(),
  idType: z.literal('IRI'),
  idShort: z.string(),
  modelType: z.literal('AssetAdministrationShell'),
  assetInformation: z.object({
    assetKind: z.literal('Instance'),
    globalAssetId: z.string(),
    specificAssetIds: z.array(z.object({ name: z.string(), value: z.string(), semanticId: reference })),
  }),
  submodels: z.array(
    z.object({
      idShort: z.string(),
      id: z.string(),
      modelType: z.literal('Submodel'),
      semanticId: reference,
      submodelElements: z.array(
        z.object({
          idShort: z.string(),
          modelType: z.literal('Property'),
          valueType: z.enum(['xs:string', 'xs:integer']),
          semanticId: reference,
          value: z.string(),
        }),
      ),
    }),
  ),
  extensions: z.array(z.object({ name: z.string(), valueType: z.string(), value: z.string() })),
});

export function aasResolveRoute(deps: RouteDeps) {
  return defineRoute({
    method: 'get',
    path: '/v1/aas/resolve/:id',
    operationId: 'resolveAas',
    summary: 'The asset administration shell of a passport.',
    description:
      ':id is the token id (decimal digits), the passport’s serviceUid (UUID), a provisioned twin’s ' +
      'service_internal_id (svc_…), or the shell’s IRI id ({PUBLIC_BASE_URL}/aas/{environment}/{tokenId} or ' +
      '…/twins/{service_internal_id}) URL-encoded. A twin with a passport answers the passport’s shell; a twin ' +
      'without one answers its own (identified by GTIN and ServiceInternalId, with what the ERP provisioned). ' +
      'Only passports and twins of the caller’s company in this environment are found (404 otherwise). ' +
      'Submodels DigitalNameplate, SustainabilityData and Security are AAS 3.0 Submodels; `success` is the only ' +
      'member beside the shell.',
    tags: ['aas'],
    auth: 'apiKey',
    params: z.object({ id: z.string().min(1).max(2000) }),
    responses: { 200: { description: 'The shell.', schema: shellResponse } },
    handler: async (ctx: AppContext, { params }) => {
      const scope = ctx.state.scope!;
      const shell = await resolveShell(
        ctx.state.em!,
        params.id,
        deps.config.publicBaseUrl,
        scope.environment,
      );
      ctx.body = { success: true, ...shell };
    },
  });
}
