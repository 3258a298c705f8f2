/**
 * The console's calls for the signed-in person's account and the company's account: passkeys, single sign-on,
 * billing and business verification (KYB). The session is the HttpOnly cookie, as for every other call.
 */
import { call, type Environment, type SessionUser } from './api.ts';

export interface Passkey {
  id: string;
  deviceType: string;
  backedUp: boolean;
  createdAt: string;
  lastUsedAt: string | null;
}

export interface SsoDomain {
  domain: string;
  verificationToken: string;
  verified: boolean;
  proofUrl: string;
}

export type SsoConnection =
  | { protocol: 'oidc'; issuer: string; clientId: string; required: boolean }
  | { protocol: 'saml'; entityId: string; ssoUrl: string; required: boolean };

export interface SsoSettings {
  domains: SsoDomain[];
  connection: SsoConnection | null;
  oidcRedirectUri: string;
  samlMetadataUrl: string;
  samlAcsUrl: string;
}

export interface BillingStatus {
  plan: 'essential' | 'pro' | null;
  status: string;
  currentPeriodStart: string | null;
  currentPeriodEnd: string | null;
  customerId: string | null;
}

export interface BillingUsage {
  periodStart: string;
  periodEnd: string;
  mints: number;
  reported: number;
  meterEventName: string;
}

export interface KybStatus {
  status: string;
  verified: boolean;
  requirements: string[];
  connectId: string | null;
}

export type DocumentType = 'identity_document' | 'registry_extract' | 'proof_of_address';

type Json = Record<string, unknown>;

export const passkeys = {
  list: (env: Environment) => call<{ passkeys: Passkey[] }>(env, 'GET', '/v1/auth/passkeys'),
  remove: (env: Environment, id: string) =>
    call(env, 'DELETE', `/v1/auth/passkeys/${encodeURIComponent(id)}`),
  registrationOptions: (env: Environment, email: string) =>
    call<Json>(env, 'POST', '/v1/auth/passkey/register/challenge', { email }),
  register: (env: Environment, credential: Json) =>
    call<{ message: string; recoveryCodes?: string[] }>(
      env,
      'POST',
      '/v1/auth/passkey/register/verify',
      credential,
    ),
  signInOptions: (env: Environment, email: string) =>
    call<Json>(env, 'POST', '/v1/auth/passkey/login/challenge', { email }),
  signIn: (env: Environment, assertion: Json) =>
    call<{ user: SessionUser }>(env, 'POST', '/v1/console/session/passkey', assertion),
};

export const recoveryCodes = {
  remaining: (env: Environment) => call<{ remaining: number }>(env, 'GET', '/v1/auth/recovery-codes'),
  renew: (env: Environment) => call<{ recoveryCodes: string[] }>(env, 'POST', '/v1/auth/recovery-codes'),
  signIn: (env: Environment, email: string, code: string) =>
    call<{ user: SessionUser; remainingRecoveryCodes: number; message: string }>(
      env,
      'POST',
      '/v1/console/session/recovery-code',
      { email, code },
    ),
};

export const sso = {
  /** Where the e-mail signs in; for SSO the browser then goes to authorizationUrl. */
  start: (env: Environment, email: string) =>
    call<{ method: 'sso' | 'password_or_passkey'; protocol?: 'oidc' | 'saml'; authorizationUrl?: string }>(
      env,
      'POST',
      '/v1/console/session/sso',
      { email },
    ),
  settings: (env: Environment) => call<SsoSettings>(env, 'GET', '/v1/auth/sso'),
  claimDomain: (env: Environment, domain: string) =>
    call<{ domain: string; verificationToken: string; proofUrl: string }>(
      env,
      'POST',
      '/v1/auth/sso/domains',
      {
        domain,
      },
    ),
  verifyDomain: (env: Environment, domain: string) =>
    call(env, 'POST', `/v1/auth/sso/domains/${encodeURIComponent(domain)}/verify`),
  saveOidc: (
    env: Environment,
    body: { issuer: string; clientId: string; clientSecret: string; required: boolean },
  ) => call(env, 'PUT', '/v1/auth/sso/oidc', body),
  saveSaml: (
    env: Environment,
    body: { entityId: string; ssoUrl: string; certificate: string; required: boolean },
  ) => call(env, 'PUT', '/v1/auth/sso/saml', body),
};

export interface PlanOffer {
  id: 'essential' | 'pro';
  name: string;
  price: {
    unitAmount: number | null;
    currency: string;
    interval: string | null;
    intervalCount: number | null;
    usageType: string | null;
  } | null;
  description: string | null;
  features: string[];
}

export const billing = {
  plans: (env: Environment) =>
    call<{ plans: PlanOffer[]; includedInEveryPlan: string[] }>(env, 'GET', '/v1/billing/plans'),
  status: (env: Environment) => call<BillingStatus>(env, 'GET', '/v1/billing/status'),
  usage: (env: Environment) => call<BillingUsage>(env, 'GET', '/v1/billing/usage'),
  checkout: (env: Environment, plan: 'essential' | 'pro', returnUrl: string) =>
    call<{ checkoutUrl: string }>(env, 'POST', '/v1/billing/checkout', {
      plan,
      successUrl: returnUrl,
      cancelUrl: returnUrl,
    }),
  portal: (env: Environment, returnUrl: string) =>
    call<{ portalUrl: string }>(env, 'POST', '/v1/billing/portal', { returnUrl }),
};

export const kyb = {
  status: (env: Environment) => call<KybStatus>(env, 'GET', '/v1/kyb/status'),
  submit: (env: Environment, body: Json) => call<{ connectId: string }>(env, 'POST', '/v1/kyb/submit', body),
  upload: (env: Environment, documentType: DocumentType, contentBase64: string) =>
    call<{ message: string; fileId: string }>(env, 'POST', '/v1/kyb/upload-document', {
      documentType,
      contentBase64,
    }),
};
