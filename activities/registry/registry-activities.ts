import { ApplicationFailure } from '@temporalio/activity';
import { nextPendingIntent, sendRegistrationIntent } from '../../src/lifecycle/registry/send-intent.ts';
import type { RegistryInput, RegistryStep } from '../../src/processes/registry.ts';
import { type EnvironmentDeps, scopedFor } from '../deps.ts';

/** Activities of the registry workflow (workflows/registry.ts). Each is safe to run again after a crash. */
export function registryActivities(deps: EnvironmentDeps) {
  return {
    /** The id of the registration's oldest intent the registry has not acknowledged; null when none is left. */
    async nextRegistryIntent(input: RegistryInput): Promise<number | null> {
      return (await nextPendingIntent(scopedFor(deps, input.scope), input.registrationId)) ?? null;
    },

    /** Sends one intent (idempotent by its key); a transient failure throws and is retried. */
    async sendRegistryIntent(input: RegistryInput & { intentId: number }): Promise<RegistryStep> {
      const em = scopedFor(deps, input.scope);
      if (!deps.registry) {
        throw ApplicationFailure.retryable(
          `no registry configured for ${deps.environment}`,
          'RegistryUnavailable',
        );
      }
      return sendRegistrationIntent(
        em,
        deps.registry.port,
        {
          publicBaseUrl: deps.publicBaseUrl,
          serviceProviderId: deps.registry.serviceProviderId,
          backupCopyUrlTemplate: deps.registry.backupCopyUrlTemplate,
        },
        input.intentId,
      );
    },
  };
}
