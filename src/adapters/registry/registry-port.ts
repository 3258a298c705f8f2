import type { RegistrationPayload, RegistryOutcome } from './registration-payload.ts';

/**
 * The EU DPP registry, as the service uses it: register a product's passport once, then report each new version
 * or status. `idempotencyKey` names the call: the registry answers a repeat with the first answer and registers
 * nothing twice. A transient failure throws {@link RegistryUnavailable} (the caller retries); a refusal is an
 * outcome, never retried as it is.
 */
export interface RegistryPort {
  register(payload: RegistrationPayload, idempotencyKey: string): Promise<RegistryOutcome>;
  update(
    registrationId: string,
    payload: RegistrationPayload,
    idempotencyKey: string,
  ): Promise<RegistryOutcome>;
}

export class RegistryUnavailable extends Error {
  override readonly name = 'RegistryUnavailable';
}
