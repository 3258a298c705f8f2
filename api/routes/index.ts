import type { RouteSpec } from '../route.ts';
import { aasResolveRoute } from './aas/resolve.ts';
import { aasApiRoutes } from './aas-api/index.ts';
import { accountRoutes } from './auth/accounts.ts';
import { apiKeyRoutes } from './auth/api-keys.ts';
import { oauthRoutes } from './auth/oauth.ts';
import { passkeyRoutes } from './auth/passkeys.ts';
import { ssoEndpoints, ssoRoutes } from './auth/sso.ts';
import { billingRoutes } from './billing/billing.ts';
import { companySettingsRoutes } from './company-settings.ts';
import { complianceRoutes } from './compliance/compliance.ts';
import { consolePasskeySessionRoutes } from './console/passkey-session.ts';
import { consoleSessionRoutes } from './console/session.ts';
import { consoleSsoSessionRoutes } from './console/sso-session.ts';
import type { RouteDeps } from './deps.ts';
import { disclosureGrantRoutes } from './disclosure/grants.ts';
import { chipKeyRoutes } from './dpp/chip-keys.ts';
import { claimRoute } from './dpp/claim.ts';
import { enrollRoute } from './dpp/enroll.ts';
import { inventoryRoute } from './dpp/inventory.ts';
import { mintRoutes } from './dpp/mint.ts';
import { passportRoutes } from './dpp/passports.ts';
import { releaseRoutes } from './dpp/release.ts';
import { resaleStatusRoute } from './dpp/resale-status.ts';
import { verifyChipRoute } from './dpp/verify-chip.ts';
import { dppContentRoutes } from './dpps/dpp-content.ts';
import { dppDynamicRoutes } from './dpps/dpp-dynamic.ts';
import { dppReadRoutes } from './dpps/dpp-reads.ts';
import { provisionRoutes } from './erp/provision.ts';
import { bindRoutes } from './factory/bind.ts';
import { toolboxKeyRoutes } from './factory/toolbox-keys.ts';
import { healthRoutes } from './health.ts';
import { supplyChainEventRoutes } from './iaas/events.ts';
import { logEventRoutes } from './iaas/log-event.ts';
import { logRecycleRoutes } from './iaas/log-recycle.ts';
import { checkoutWebhookRoute } from './public/checkout-webhook.ts';
import { publicPassportRoutes } from './public-passport.ts';
import { teamRoutes } from './team/members.ts';
import { webhookDeliveryRoutes } from './webhooks/deliveries.ts';
import { webhookEndpointRoutes } from './webhooks/endpoints.ts';

/** Every documented operation of the API, in the order the OpenAPI document lists them. */
export function allRoutes(deps: RouteDeps): RouteSpec[] {
  return [
    ...healthRoutes(deps.readiness, deps.readinessWarnings),
    ...apiKeyRoutes,
    ...accountRoutes(deps),
    ...oauthRoutes(deps),
    ...passkeyRoutes(deps),
    ...ssoRoutes(deps),
    ...consoleSessionRoutes(deps),
    ...consolePasskeySessionRoutes(deps),
    ...consoleSsoSessionRoutes(deps, ssoEndpoints(deps)),
    ...teamRoutes(deps),
    enrollRoute,
    verifyChipRoute(deps),
    ...mintRoutes(deps),
    inventoryRoute,
    ...passportRoutes(deps),
    ...releaseRoutes(deps),
    resaleStatusRoute(deps),
    claimRoute(deps),
    ...logEventRoutes(deps),
    ...supplyChainEventRoutes,
    ...logRecycleRoutes(deps),
    aasResolveRoute(deps),
    ...aasApiRoutes(deps),
    ...chipKeyRoutes(deps),
    ...webhookEndpointRoutes(deps),
    ...webhookDeliveryRoutes(deps),
    ...provisionRoutes,
    ...bindRoutes(deps),
    ...toolboxKeyRoutes,
    ...companySettingsRoutes,
    ...billingRoutes(deps),
    ...complianceRoutes(deps),
    checkoutWebhookRoute(deps),
    ...publicPassportRoutes(deps),
    ...dppReadRoutes(deps),
    ...dppContentRoutes(deps),
    ...dppDynamicRoutes(deps),
    ...disclosureGrantRoutes(deps),
  ];
}
