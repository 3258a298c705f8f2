/**
 * Calls to the service's API from the console. The session is an HttpOnly cookie the browser sends by itself
 * (same origin); nothing secret is ever kept in script-readable storage. Every call names the environment.
 */
import type { Right } from './rights.tsx';

export type Environment = 'test' | 'live';
export type Role = 'owner' | 'developer' | 'viewer';

export interface SessionUser {
  id: number;
  email: string;
  companyName: string;
  role: Role;
  /** What the role may do, from the API's role table (console/src/rights.tsx). */
  rights: Right[];
}

export interface ApiKey {
  id: string;
  name: string;
  prefix: string;
  environment: Environment;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

export interface Member {
  id: number;
  email: string;
  role: Role;
  emailConfirmed: boolean;
  createdAt: string;
}

export interface OAuthClient {
  id: string;
  clientId: string;
  name: string;
  environment: Environment;
  createdAt: string;
  revokedAt: string | null;
}

export interface WebhookEndpoint {
  id: string;
  url: string;
  description: string | null;
  eventTypes: string[];
  enabled: boolean;
  disabledReason: string | null;
  createdAt: string;
}

export interface WebhookDelivery {
  id: string;
  eventId: string;
  eventType: string;
  status: 'pending' | 'succeeded' | 'dead' | 'stopped';
  attemptCount: number;
  nextAttemptAt: string | null;
  lastStatusCode: number | null;
  lastError: string | null;
  createdAt: string;
  endpointId: string;
  succeededAt: string | null;
  deadLetteredAt: string | null;
  attempts: WebhookAttempt[];
}

export interface WebhookAttempt {
  attempt: number;
  startedAt: string;
  durationMs: number;
  statusCode: number | null;
  error: string | null;
  responseSnippet: string | null;
}

export interface DeliveryPage {
  deliveries: WebhookDelivery[];
  nextCursor: string | null;
}

/** One bad field of a 400 validation_failed: `query.q`, `body.items.3.gtin`, … and the rule it broke. */
export interface FieldError {
  path: string;
  message: string;
}

export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly fields: FieldError[];
  constructor(status: number, code: string, message: string, fields: FieldError[] = []) {
    super(message);
    this.status = status;
    this.code = code;
    this.fields = fields;
  }
}

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export async function call<T>(
  environment: Environment,
  method: Method,
  path: string,
  body?: unknown,
): Promise<T> {
  return (await callTagged<T>(environment, method, path, body)).body;
}

/** {@link call} that also sends If-Match (when given) and answers the response's ETag. */
export async function callTagged<T>(
  environment: Environment,
  method: Method,
  path: string,
  body?: unknown,
  ifMatch?: string,
): Promise<{ body: T; etag: string | null }> {
  const headers: Record<string, string> = { accept: 'application/json', 'x-service-env': environment };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (ifMatch !== undefined) headers['if-match'] = ifMatch;
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      headers,
      credentials: 'same-origin',
      cache: 'no-store',
      body: body === undefined ? null : JSON.stringify(body),
    });
  } catch {
    throw new ApiError(0, 'network', 'The service cannot be reached. Check your connection and try again.');
  }
  const data = (await response.json().catch(() => ({}))) as Record<string, unknown>;
  if (!response.ok) {
    const message =
      typeof data.detail === 'string' ? data.detail : `The request failed (${response.status}).`;
    const fields = Array.isArray(data.errors) ? (data.errors as FieldError[]) : [];
    throw new ApiError(response.status, typeof data.code === 'string' ? data.code : 'error', message, fields);
  }
  return { body: data as T, etag: response.headers.get('etag') };
}

export const session = {
  current: (env: Environment) => call<{ user: SessionUser }>(env, 'GET', '/v1/console/session'),
  signIn: (env: Environment, email: string, password: string) =>
    call<{ user: SessionUser }>(env, 'POST', '/v1/console/session', { email, password }),
  signOut: (env: Environment) => call(env, 'DELETE', '/v1/console/session'),
  signOutEverywhere: (env: Environment) => call<{ ended: number }>(env, 'DELETE', '/v1/console/sessions'),
  register: (env: Environment, email: string, password: string, companyName: string) =>
    call<{ message: string }>(env, 'POST', '/v1/auth/register', { email, password, companyName }),
};

export const apiKeys = {
  list: (env: Environment) => call<{ apiKeys: ApiKey[] }>(env, 'GET', '/v1/auth/api-keys?details=true'),
  create: (env: Environment, name: string) =>
    call<{ apiKey: ApiKey; key: string }>(env, 'POST', '/v1/auth/api-keys', { name }),
  revoke: (env: Environment, id: string) =>
    call<{ apiKey: ApiKey }>(env, 'DELETE', `/v1/auth/api-keys/${encodeURIComponent(id)}`),
};

export const team = {
  list: (env: Environment) => call<{ members: Member[] }>(env, 'GET', '/v1/team/members'),
  invite: (env: Environment, email: string, role: Role) =>
    call<{ member: Member }>(env, 'POST', '/v1/team/invitations', { email, role }),
  changeRole: (env: Environment, id: number, role: Role) =>
    call<{ member: Member }>(env, 'PATCH', `/v1/team/members/${id}`, { role }),
  remove: (env: Environment, id: number) => call<{ member: Member }>(env, 'DELETE', `/v1/team/members/${id}`),
};

export const oauthClients = {
  list: (env: Environment) => call<{ clients: OAuthClient[] }>(env, 'GET', '/v1/auth/oauth/clients'),
  create: (env: Environment, name: string) =>
    call<{ client: OAuthClient; clientSecret: string }>(env, 'POST', '/v1/auth/oauth/clients', { name }),
  revoke: (env: Environment, id: string) =>
    call<{ client: OAuthClient }>(env, 'DELETE', `/v1/auth/oauth/clients/${encodeURIComponent(id)}`),
};

/** Deliveries per page of a delivery log or of the dead-letter queue. */
export const DELIVERY_PAGE = 25;

export const webhooks = {
  list: (env: Environment) => call<{ endpoints: WebhookEndpoint[] }>(env, 'GET', '/v1/webhooks/endpoints'),
  create: (env: Environment, body: { url: string; description?: string; eventTypes: string[] }) =>
    call<{ endpoint: WebhookEndpoint; secret: string }>(env, 'POST', '/v1/webhooks/endpoints', body),
  setEnabled: (env: Environment, id: string, enabled: boolean) =>
    call<{ endpoint: WebhookEndpoint }>(env, 'PATCH', `/v1/webhooks/endpoints/${encodeURIComponent(id)}`, {
      enabled,
    }),
  rotateSecret: (env: Environment, id: string, overlapSeconds?: number) =>
    call<{ secret: string; previousSecretExpiresAt: string | null }>(
      env,
      'POST',
      `/v1/webhooks/endpoints/${encodeURIComponent(id)}/rotate-secret`,
      overlapSeconds === undefined ? {} : { overlapSeconds },
    ),
  deliveries: (env: Environment, id: string, after?: string) =>
    call<DeliveryPage>(
      env,
      'GET',
      `/v1/webhooks/endpoints/${encodeURIComponent(id)}/deliveries?limit=${DELIVERY_PAGE}${after ? `&after=${encodeURIComponent(after)}` : ''}`,
    ),
  eventTypes: (env: Environment) => call<{ eventTypes: string[] }>(env, 'GET', '/v1/webhooks/event-types'),
  update: (
    env: Environment,
    id: string,
    body: { url?: string; description?: string | null; eventTypes?: string[] },
  ) =>
    call<{ endpoint: WebhookEndpoint }>(
      env,
      'PATCH',
      `/v1/webhooks/endpoints/${encodeURIComponent(id)}`,
      body,
    ),
  sendTest: (env: Environment, id: string) =>
    call<{ eventId: string; eventType: string }>(
      env,
      'POST',
      `/v1/webhooks/endpoints/${encodeURIComponent(id)}/test`,
      {},
    ),
  deadLetters: (
    env: Environment,
    query: { endpointId?: string; from?: string; to?: string; after?: string },
  ) => {
    const search = new URLSearchParams({ limit: String(DELIVERY_PAGE) });
    for (const [name, value] of Object.entries(query)) if (value) search.set(name, value);
    return call<DeliveryPage>(env, 'GET', `/v1/webhooks/dead-letters?${search}`);
  },
  replay: (env: Environment, deliveryId: string) =>
    call<{ delivery: WebhookDelivery }>(
      env,
      'POST',
      `/v1/webhooks/dead-letters/${encodeURIComponent(deliveryId)}/replay`,
      {},
    ),
  replayRange: (env: Environment, body: { endpointId?: string; from: string; to: string }) =>
    call<{ replayed: number; skipped: number; hasMore: boolean }>(
      env,
      'POST',
      '/v1/webhooks/dead-letters/replay',
      body,
    ),
  remove: (env: Environment, id: string) =>
    call(env, 'DELETE', `/v1/webhooks/endpoints/${encodeURIComponent(id)}`),
};

/** Password reset: the mail's link (and an invitation's) opens /console/reset-password?token=…. */
export const passwordReset = {
  request: (env: Environment, email: string) =>
    call<{ message: string }>(env, 'POST', '/v1/auth/password/reset-request', { email }),
  set: (env: Environment, token: string, password: string) =>
    call<{ message: string }>(env, 'POST', '/v1/auth/password/reset', { token, password }),
};
