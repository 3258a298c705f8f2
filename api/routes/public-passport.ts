import type { RouteSpec } from '../route.ts';
import type { RouteDeps } from './deps.ts';
import { revokeRoute } from './passports/revoke.ts';
import { discoveryRoutes } from './resolver/discovery.ts';
import { resolverRoutes } from './resolver/resolver.ts';
import { brandAssetRoutes } from './verify/brand-assets.ts';
import { levelPageRoutes } from './verify/level-page.ts';
import { verifyPageRoute } from './verify/page.ts';
import { tapRoute } from './verify/tap.ts';

/**
 * The public passport: GS1 Digital Link resolver, verification page and its tap check, discovery documents
 * (resolver description, issuer DIDs, status lists, JSON-LD context), and revocation for the owning company.
 */
export function publicPassportRoutes(deps: RouteDeps): RouteSpec[] {
  return [
    ...resolverRoutes(deps),
    ...brandAssetRoutes(deps),
    verifyPageRoute(deps),
    ...levelPageRoutes(deps),
    tapRoute(deps),
    ...discoveryRoutes(deps),
    revokeRoute(deps),
  ];
}
