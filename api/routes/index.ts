import type { RouteSpec } from '../route.ts';
import { apiKeyRoutes } from './auth/api-keys.ts';
import { healthRoutes, type ReadinessCheck } from './health.ts';

/** Every documented operation of the API, in the order the OpenAPI document lists them. */
export function allRoutes(readiness: Record<string, ReadinessCheck>): RouteSpec[] {
  return [...healthRoutes(readiness), ...apiKeyRoutes];
}
