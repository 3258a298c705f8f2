import type { RouteSpec } from '../route.ts';
import { apiKeyRoutes } from './auth/api-keys.ts';
import type { RouteDeps } from './deps.ts';
import { chipKeyRoutes } from './dpp/chip-keys.ts';
import { enrollRoute } from './dpp/enroll.ts';
import { inventoryRoute } from './dpp/inventory.ts';
import { mintRoutes } from './dpp/mint.ts';
import { verifyChipRoute } from './dpp/verify-chip.ts';
import { healthRoutes } from './health.ts';
import { webhookDeliveryRoutes } from './webhooks/deliveries.ts';
import { webhookEndpointRoutes } from './webhooks/endpoints.ts';

/** Every documented operation of the API, in the order the OpenAPI document lists them. */
export function allRoutes(deps: RouteDeps): RouteSpec[] {
  return [
    ...healthRoutes(deps.readiness),
    ...apiKeyRoutes,
    enrollRoute,
    verifyChipRoute(deps),
    ...mintRoutes(deps),
    inventoryRoute,
    ...chipKeyRoutes(deps),
    ...webhookEndpointRoutes(deps),
    ...webhookDeliveryRoutes(deps),
  ];
}
