import { call, type Environment } from './api.ts';

export interface PassportCounts {
  active: number;
  suspended: number;
  archived: number;
  recycled: number;
  revoked: number;
  total: number;
}

export interface AttentionCounts {
  deadLetters: number;
  retryingDeliveries: number;
  disabledEndpoints: number;
  registryRefused: number;
  backupsStuck: number;
}

export interface Overview {
  passports: Record<Environment, PassportCounts>;
  mints: Record<Environment, { running: number; needAttention: number }> | null;
  attention: Record<Environment, AttentionCounts>;
  checklist: {
    apiKey: boolean;
    testPassport: boolean;
    webhookEndpoint: boolean;
    verificationSubmitted: boolean;
    liveKey: boolean;
  };
}

/** The overview covers both environments whatever the switch says; the call still names the console's. */
export const overview = (env: Environment) => call<Overview>(env, 'GET', '/v1/console/overview');
