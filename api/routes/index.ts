import type { RouteSpec } from '../route.ts';
import { aasApiRoutes } from './aas/index.ts';
import { aasResolveRoute } from './aas/resolve.ts';
import { accountRoutes } from './accounts/accounts.ts';
import { apiKeyRoutes } from './accounts/api-keys.ts';
import { brandingRoutes } from './accounts/branding.ts';
import { companySettingsRoutes } from './accounts/company-settings.ts';
import { oauthRoutes } from './accounts/oauth.ts';
import { passkeyRoutes } from './accounts/passkeys.ts';
import { ssoEndpoints, ssoRoutes } from './accounts/sso.ts';
import { teamRoutes } from './accounts/team.ts';
import { backupRoutes } from './backup/index.ts';
import { billingRoutes } from './billing/billing.ts';
import { bindRoutes } from './bind/bind.ts';
import { toolboxKeyRoutes } from './bind/toolbox-keys.ts';
import { chipKeyRoutes } from './chips/chip-keys.ts';
import { enrollRoute } from './chips/enroll.ts';
import { inventoryRoute } from './chips/inventory.ts';
import { signalRoutes } from './chips/signals.ts';
import { verifyChipRoute } from './chips/verify-chip.ts';
import { complianceRoutes } from './compliance/compliance.ts';
import { consoleOverviewRoutes } from './console/overview.ts';
import { consolePasskeySessionRoutes } from './console/passkey-session.ts';
import { consoleSessionRoutes } from './console/session.ts';
import { consoleSsoSessionRoutes } from './console/sso-session.ts';
import type { RouteDeps } from './deps.ts';
import { disclosureGrantRoutes } from './disclosure/grants.ts';
import { dppCompletenessRoutes } from './dpp-api/dpp-completeness.ts';
import { dppContentRoutes } from './dpp-api/dpp-content.ts';
import { dppCreateRoutes } from './dpp-api/dpp-create.ts';
import { dppDynamicRoutes } from './dpp-api/dpp-dynamic.ts';
import { dppEvidenceRoutes } from './dpp-api/dpp-evidence.ts';
import { dppLifecycleRoutes } from './dpp-api/dpp-lifecycle.ts';
import { dppReadRoutes } from './dpp-api/dpp-reads.ts';
import { dppRegistrationRoutes } from './dpp-api/dpp-registration.ts';
import { healthRoutes } from './health.ts';
import { mintRoutes } from './mint/mint.ts';
import { levelListRoutes } from './passports/levels.ts';
import { passportRoutes } from './passports/passports.ts';
import { checkoutWebhookRoute } from './payments/checkout-webhook.ts';
import { provisionImportRoutes } from './provision/import.ts';
import { provisionRoutes } from './provision/provision.ts';
import { publicPassportRoutes } from './public-passport.ts';
import { logRecycleRoutes } from './recycling/log-recycle.ts';
import { requestLogRoutes } from './request-logs/request-logs.ts';
import { claimRoute } from './resale/claim.ts';
import { claimChallengeRoute } from './resale/claim-challenge.ts';
import { releaseRoutes } from './resale/release.ts';
import { resaleStatusRoute } from './resale/resale-status.ts';
import { supplyChainEventRoutes } from './supply-chain/events.ts';
import { logEventRoutes } from './supply-chain/log-event.ts';
import { transferRoutes } from './transfers/transfers.ts';
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
    ...consoleOverviewRoutes(deps),
    ...teamRoutes(deps),
    enrollRoute,
    verifyChipRoute(deps),
    ...signalRoutes,
    ...mintRoutes(deps),
    inventoryRoute,
    ...passportRoutes(deps),
    ...levelListRoutes(deps),
    ...releaseRoutes(deps),
    resaleStatusRoute(deps),
    claimChallengeRoute(deps),
    claimRoute(deps),
    ...logEventRoutes(deps),
    ...supplyChainEventRoutes,
    ...logRecycleRoutes(deps),
    aasResolveRoute(deps),
    ...aasApiRoutes(deps),
    ...chipKeyRoutes(deps),
    ...webhookEndpointRoutes(deps),
    ...webhookDeliveryRoutes(deps),
    ...requestLogRoutes,
    ...provisionRoutes,
    ...provisionImportRoutes(deps),
    ...bindRoutes(deps),
    ...toolboxKeyRoutes,
    ...companySettingsRoutes,
    ...brandingRoutes,
    ...billingRoutes(deps),
    ...complianceRoutes(deps),
    checkoutWebhookRoute(deps),
    ...publicPassportRoutes(deps),
    ...dppCreateRoutes(deps),
    ...dppReadRoutes(deps),
    ...dppContentRoutes(deps),
    ...dppLifecycleRoutes(deps),
    ...dppRegistrationRoutes,
    ...dppCompletenessRoutes(deps),
    ...dppDynamicRoutes(deps),
    ...dppEvidenceRoutes(deps),
    ...disclosureGrantRoutes(deps),
    ...backupRoutes(deps),
    ...transferRoutes(deps),
  ];
}
