import { z } from 'zod';
import { shellsAndSubmodels } from '../../../src/passport/aas/aas-serialization.ts';
import { BATTERY_SUBMODEL_ID_SHORTS } from '../../../src/passport/aas/battery/battery-served.ts';
import { conceptDescriptionsOf } from '../../../src/standards/aas/concept-descriptions.ts';
import type { AasV3Submodel } from '../../../src/standards/aas/elements.ts';
import type { RouteDeps } from '../deps.ts';
import { aasRoute, aasScope, looseJson, sendJson } from './common.ts';

/** The profiles this API implements (IDTA-01002 3.0 service specification profiles). */
export const AAS_PROFILES = [
  'https://admin-shell.io/aas/API/3/0/AssetAdministrationShellRepositoryServiceSpecification/SSP-002',
  'https://admin-shell.io/aas/API/3/0/SubmodelRepositoryServiceSpecification/SSP-002',
];

const ids = z
  .union([z.string().max(4000), z.array(z.string().max(4000)).max(50)])
  .optional()
  .transform((value) =>
    value === undefined ? [] : (Array.isArray(value) ? value : [value]).flatMap((v) => v.split(',')),
  );

const BATTERY_ID_SHORTS: ReadonlySet<string> = new Set(BATTERY_SUBMODEL_ID_SHORTS);

export function serviceRoutes(deps: RouteDeps) {
  return [
    aasRoute({
      path: '/description',
      operationId: 'aasGetDescription',
      summary: 'AAS API: the service profiles this API implements.',
      schema: z.object({ profiles: z.array(z.string()) }),
      handler: async (ctx) => sendJson(ctx, { profiles: AAS_PROFILES }),
    }),
    aasRoute({
      path: '/serialization',
      operationId: 'aasGenerateSerializationByIds',
      summary: 'AAS API: an AAS environment (JSON) of the given shells and submodels.',
      description:
        'aasIds and submodelIds: base64url-encoded identifiers (repeated, or comma-separated). Without any id, the ' +
        'first 100 listed shells and their submodels. includeConceptDescriptions=true adds the descriptions of our own ' +
        'concepts (urn:dpp-service:aas:1:…) the submodels use.',
      query: z.object({
        aasIds: ids,
        submodelIds: ids,
        includeConceptDescriptions: z
          .string()
          .regex(/^(true|false)$/i)
          .optional()
          .describe('true or false (any case).'),
      }),
      schema: looseJson,
      handler: async (ctx, { query }) => {
        const { shells, submodels } = await shellsAndSubmodels(
          // A fresh tap (the chip's SUN parameters) counts when the request names one shell only.
          await aasScope(ctx, deps, {
            tap: query.aasIds.length === 1 && query.submodelIds.length === 0,
          }),
          query.aasIds,
          query.submodelIds,
        );
        // The AAS JSON schema allows no empty lists: a list without members is left out.
        const concepts = /^true$/i.test(query.includeConceptDescriptions ?? '')
          ? // Only our own concepts are described; the battery submodels use none (their ids are IDTA's).
            conceptDescriptionsOf(
              submodels.filter((s): s is AasV3Submodel => !BATTERY_ID_SHORTS.has(s.idShort)),
            )
          : [];
        sendJson(ctx, {
          ...(shells.length > 0 ? { assetAdministrationShells: shells } : {}),
          ...(submodels.length > 0 ? { submodels } : {}),
          ...(concepts.length > 0 ? { conceptDescriptions: concepts } : {}),
        });
      },
    }),
  ];
}
