import type { RouteSpec } from '../../route.ts';
import type { RouteDeps } from '../deps.ts';
import { serviceRoutes } from './service.ts';
import { shellRoutes } from './shells.ts';
import { submodelRepositoryRoutes } from './submodels.ts';

/**
 * The AAS Part 2 HTTP/REST API v3.0 at /api/v3.0 (read profiles of the AAS repository and the submodel
 * repository): docs/aas-api.md. Literal segments ($reference, $value, …) before parameters.
 */
export function aasApiRoutes(deps: RouteDeps): RouteSpec[] {
  return [...serviceRoutes(deps), ...shellRoutes(deps), ...submodelRepositoryRoutes(deps)];
}
