import type { Environment } from '../../platform/config/config.ts';
import type { RegistryConfig } from '../../platform/config/registry-env.ts';
import { HttpRegistry } from './http-registry.ts';
import type { RegistryPort } from './registry-port.ts';

/** The environment's registry from configuration; undefined when it has none (its intents wait). */
export function registryFor(config: RegistryConfig, environment: Environment): RegistryPort | undefined {
  const api = config.api[environment];
  return api ? new HttpRegistry(api.url, api.token) : undefined;
}
