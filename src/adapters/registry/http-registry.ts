import type { RegistrationPayload, RegistryOutcome } from './registration-payload.ts';
import { type RegistryPort, RegistryUnavailable } from './registry-port.ts';

const TIMEOUT_MS = 15_000;

interface Answer {
  registrationId?: unknown;
  reason?: unknown;
  error?: unknown;
  fields?: unknown;
}

/**
 * The registry over HTTP (docs/registry.md "Protocol"): `POST {url}/v1/registrations` registers,
 * `POST {url}/v1/registrations/{registrationId}/versions` reports a version or status, each with a bearer
 * credential and an `Idempotency-Key`. The emulator speaks the same protocol; the real registry's URL and
 * credential come from configuration (REGISTRY_API_URL_*, REGISTRY_API_TOKEN_*).
 */
export class HttpRegistry implements RegistryPort {
  private readonly url: string;
  private readonly token: string | undefined;

  constructor(url: string, token: string | undefined) {
    this.url = url;
    this.token = token;
  }

  register(payload: RegistrationPayload, idempotencyKey: string): Promise<RegistryOutcome> {
    return this.post('/v1/registrations', payload, idempotencyKey);
  }

  update(
    registrationId: string,
    payload: RegistrationPayload,
    idempotencyKey: string,
  ): Promise<RegistryOutcome> {
    return this.post(
      `/v1/registrations/${encodeURIComponent(registrationId)}/versions`,
      payload,
      idempotencyKey,
    );
  }

  private async post(path: string, payload: RegistrationPayload, key: string): Promise<RegistryOutcome> {
    let response: Response;
    try {
      response = await fetch(`${this.url}${path}`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'idempotency-key': key,
          ...(this.token ? { authorization: `Bearer ${this.token}` } : {}),
        },
        body: JSON.stringify(payload),
        signal: AbortSignal.timeout(TIMEOUT_MS),
        redirect: 'error',
      });
    } catch (error) {
      throw new RegistryUnavailable(`registry unreachable: ${(error as Error).message}`);
    }
    const answer = (await response.json().catch(() => ({}))) as Answer;
    if (response.ok && typeof answer.registrationId === 'string') {
      return { accepted: true, registrationId: answer.registrationId };
    }
    if (response.status >= 400 && response.status < 500 && ![408, 425, 429].includes(response.status)) {
      return {
        accepted: false,
        status: response.status,
        reason: typeof answer.reason === 'string' ? answer.reason : `refused (HTTP ${response.status})`,
        fields: Array.isArray(answer.fields) ? (answer.fields as { path: string; message: string }[]) : [],
      };
    }
    throw new RegistryUnavailable(`registry answered HTTP ${response.status}`);
  }
}
