import type { SsoEndpoints } from '../../../src/accounts/sso/sso.ts';
import type { RouteSpec } from '../../route.ts';
import type { RouteDeps } from '../deps.ts';
import { ssoLoginRoutes } from './sso-login.ts';
import { ssoSettingsRoutes } from './sso-settings.ts';

/** Our side of SSO: the OIDC redirect URI, the SAML service provider's addresses, the outbound policy. */
export function ssoEndpoints(deps: RouteDeps): SsoEndpoints {
  return {
    oidcRedirectUri: `${deps.config.publicBaseUrl}/v1/auth/sso/oidc/callback`,
    saml: {
      entityId: `${deps.config.publicBaseUrl}/v1/auth/sso/saml/metadata`,
      acsUrl: `${deps.config.publicBaseUrl}/v1/auth/sso/saml/acs`,
    },
    outbound: { allowPrivate: deps.config.identity.ssoAllowPrivateUrls },
  };
}

/** Enterprise SSO over OpenID Connect or SAML 2.0: the company's settings, and the login flow. */
export function ssoRoutes(deps: RouteDeps): RouteSpec[] {
  const endpoints = ssoEndpoints(deps);
  return [...ssoSettingsRoutes(deps, endpoints), ...ssoLoginRoutes(deps, endpoints)];
}
