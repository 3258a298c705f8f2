import type { Config } from '../../src/platform/config/config.ts';
import type { Logger } from '../../src/platform/logging/logger.ts';
import { type RegistryEmulator, startRegistryEmulator } from './registry-emulator.ts';

/**
 * The EU DPP registry for `npm start`: the configured one when REGISTRY_API_URL_TEST is set, else the emulator
 * on a free local port for the test environment (live registrations wait for a configured registry). Without
 * BACKUP_COPY_URL_TEMPLATE the registrations name the passport's own Digital Link as its backup copy, until a
 * backup provider is configured (docs/registry.md).
 */
export async function startDevRegistry(
  config: Config,
  logger: Logger,
): Promise<{ config: Config; emulator: RegistryEmulator | undefined; stop(): Promise<void> }> {
  const backupCopyUrlTemplate = config.registry.backupCopyUrlTemplate ?? `${config.publicBaseUrl}{path}`;
  if (config.registry.api.test) {
    return {
      config: { ...config, registry: { ...config.registry, backupCopyUrlTemplate } },
      emulator: undefined,
      stop: async () => {},
    };
  }
  const emulator = await startRegistryEmulator();
  logger.info({ url: emulator.url }, 'EU DPP registry emulator started for the test environment');
  return {
    config: {
      ...config,
      registry: {
        ...config.registry,
        backupCopyUrlTemplate,
        api: { ...config.registry.api, test: { url: emulator.url, token: undefined } },
      },
    },
    emulator,
    stop: () => emulator.stop(),
  };
}
