import type { TenantScope } from '../platform/db/tenant-scope.ts';

/** The registry workflow of one passport: `registry:{env}:{serviceUid}` (workflow-ids.ts). */
export const REGISTRY_WORKFLOW = 'registerPassport';
/** Sent by the dispatcher when the passport has new intents, or when a refused registration is retried. */
export const REGISTRY_NUDGE_SIGNAL = 'registryNudge';
export const REGISTRY_PROGRESS_QUERY = 'registryProgress';

export interface RegistryInput {
  scope: TenantScope;
  /** Our registration identity of the passport (registry_registrations.id). */
  registrationId: string;
}

/** One intent sent: acknowledged, refused with the registry's reason, or its passport is gone. */
export type RegistryStep =
  | { outcome: 'registered'; registryId: string }
  | { outcome: 'refused'; reason: string }
  | { outcome: 'gone' };

export interface RegistryProgress {
  sent: number;
  registryId: string | null;
  /** Set while the registry refuses: the workflow waits for a retry (DppAttention = "registration_refused"). */
  refused: { reason: string } | null;
}

export type RegistryWorkflow = (input: RegistryInput) => Promise<{ sent: number }>;
