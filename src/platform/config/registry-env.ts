import { z } from 'zod';
import type { Environment } from './config.ts';

/** The EU DPP registry variables of the environment schema (src/platform/config/env.ts); docs/registry.md. */
export const registryEnvShape = {
  REGISTRY_API_URL_LIVE: z.url().optional(),
  REGISTRY_API_URL_TEST: z.url().optional(),
  REGISTRY_API_TOKEN_LIVE: z.string().min(1).max(4096).optional(),
  REGISTRY_API_TOKEN_TEST: z.string().min(1).max(4096).optional(),
  /** Our identifier as a DPP service provider (the registry's list of service providers). */
  REGISTRY_SERVICE_PROVIDER_ID: z.string().min(1).max(200).default('dpp-service'),
  /**
   * Where the independent backup copy of a passport is served: `{path}` is replaced by the Digital Link's path
   * (`/01/{gtin}/21/{serial}`, `/test/01/…`), `{dppId}` by the passport's id.
   */
  BACKUP_COPY_URL_TEMPLATE: z
    .string()
    .regex(/^https?:\/\/[^\s]+$/, 'must be an http(s) URL template with {path} or {dppId}')
    .optional(),
};

type RegistryEnv = z.infer<z.ZodObject<typeof registryEnvShape>>;

export interface RegistryConfig {
  /** Per environment: the registry's API base and credential; unset: that environment's intents wait. */
  api: Record<Environment, { url: string; token: string | undefined } | undefined>;
  serviceProviderId: string;
  backupCopyUrlTemplate: string | undefined;
}

/**
 * The backup link defaults to where the configured backup provider serves our copies (docs/backup.md:
 * `{backupBase}/backup/{peerId}{path}`); BACKUP_COPY_URL_TEMPLATE overrides it.
 */
export function registryConfig(
  e: RegistryEnv,
  backupProvider?: { peerId: string; publicBaseUrl: string },
): RegistryConfig {
  const api = (url: string | undefined, token: string | undefined) =>
    url ? { url: url.replace(/\/+$/, ''), token } : undefined;
  return {
    api: {
      live: api(e.REGISTRY_API_URL_LIVE, e.REGISTRY_API_TOKEN_LIVE),
      test: api(e.REGISTRY_API_URL_TEST, e.REGISTRY_API_TOKEN_TEST),
    },
    serviceProviderId: e.REGISTRY_SERVICE_PROVIDER_ID,
    backupCopyUrlTemplate:
      e.BACKUP_COPY_URL_TEMPLATE ??
      (backupProvider ? `${backupProvider.publicBaseUrl}/backup/${backupProvider.peerId}{path}` : undefined),
  };
}
