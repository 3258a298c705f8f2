import { randomUUID } from 'node:crypto';
import { type EntityManager, raw } from '@mikro-orm/postgresql';
import { WebhookEndpoint } from '../platform/db/entities/index.ts';
import { ownedBy, type TenantScope } from '../platform/db/tenant-scope.ts';
import { DomainError } from '../platform/errors.ts';
import type { SecretBox } from '../platform/secret-box.ts';
import { inRotationOverlap, sealWebhookSecret } from './endpoint-secrets.ts';
import type { EventType } from './event-types.ts';
import { generateWebhookSecret } from './signing.ts';
import { checkWebhookUrlForRegistration, type Resolver, type UrlPolicy } from './url-safety.ts';

export interface EndpointView {
  id: string;
  url: string;
  description: string | null;
  eventTypes: string[];
  enabled: boolean;
  disabledReason: string | null;
  createdAt: string;
  updatedAt: string;
  secretRotation: { previousSecretExpiresAt: string } | null;
}

/** The endpoint as the API shows it: never a secret, only whether a rotation overlap is running. */
export function describeEndpoint(endpoint: WebhookEndpoint, now: Date = new Date()): EndpointView {
  return {
    id: endpoint.id,
    url: endpoint.url,
    description: endpoint.description ?? null,
    eventTypes: [...endpoint.eventTypes],
    enabled: endpoint.enabled,
    disabledReason: endpoint.disabledReason ?? null,
    createdAt: endpoint.createdAt.toISOString(),
    updatedAt: endpoint.updatedAt.toISOString(),
    secretRotation: inRotationOverlap(endpoint, now)
      ? { previousSecretExpiresAt: endpoint.previousSecretExpiresAt!.toISOString() }
      : null,
  };
}

export interface EndpointChanges {
  url?: string | undefined;
  description?: string | null | undefined;
  eventTypes?: EventType[] | undefined;
  enabled?: boolean | undefined;
}

export interface UrlCheck {
  policy: UrlPolicy;
  resolve?: Resolver;
}

function distinct(types: EventType[]): EventType[] {
  return [...new Set(types)];
}

/** Creates an endpoint; the returned `secret` is the only time the signing secret leaves the server. */
export async function createEndpoint(
  em: EntityManager,
  box: SecretBox,
  scope: TenantScope,
  check: UrlCheck,
  input: EndpointChanges & { url: string },
): Promise<{ endpoint: WebhookEndpoint; secret: string }> {
  await checkWebhookUrlForRegistration(input.url, check.policy, check.resolve);
  const id = randomUUID();
  const secret = generateWebhookSecret();
  const endpoint = em.create(WebhookEndpoint, {
    id,
    ...ownedBy(scope),
    url: input.url,
    description: input.description ?? null,
    eventTypes: distinct(input.eventTypes ?? []),
    enabled: input.enabled ?? true,
    disabledReason: null,
    secret: sealWebhookSecret(box, id, secret),
    previousSecret: null,
    previousSecretExpiresAt: null,
    deletedAt: null,
  });
  await em.flush();
  return { endpoint, secret };
}

/** Live (not deleted) endpoints of the scope, newest first. */
export async function listEndpoints(em: EntityManager): Promise<WebhookEndpoint[]> {
  return em.find(WebhookEndpoint, { deletedAt: null }, { orderBy: { createdAt: 'desc', id: 'asc' } });
}

export function endpointNotFound(id: string): DomainError {
  return new DomainError('not_found', 'webhook_endpoint_not_found', `No webhook endpoint ${id} here.`);
}

/** An endpoint of the scope that is not deleted, or 404. */
export async function getEndpoint(em: EntityManager, id: string): Promise<WebhookEndpoint> {
  const endpoint = await em.findOne(WebhookEndpoint, { id, deletedAt: null });
  if (!endpoint) throw endpointNotFound(id);
  return endpoint;
}

/**
 * Applies a partial update. Enabling clears `disabledReason` (the reason the service disabled it; no rule of
 * the service sets one at present); disabling through the API leaves no reason. Deliveries in flight see the change at their next attempt.
 */
export async function updateEndpoint(
  em: EntityManager,
  check: UrlCheck,
  id: string,
  changes: EndpointChanges,
): Promise<WebhookEndpoint> {
  const endpoint = await getEndpoint(em, id);
  if (changes.url !== undefined && changes.url !== endpoint.url) {
    await checkWebhookUrlForRegistration(changes.url, check.policy, check.resolve);
    endpoint.url = changes.url;
  }
  if (changes.description !== undefined) endpoint.description = changes.description;
  if (changes.eventTypes !== undefined) endpoint.eventTypes = distinct(changes.eventTypes);
  if (changes.enabled !== undefined && changes.enabled !== endpoint.enabled) {
    endpoint.enabled = changes.enabled;
    endpoint.disabledReason = null;
  }
  await em.flush();
  return endpoint;
}

/** Soft delete: the row stays for its deliveries' history; running deliveries stop at their next attempt. */
export async function deleteEndpoint(em: EntityManager, id: string): Promise<WebhookEndpoint> {
  const endpoint = await getEndpoint(em, id);
  endpoint.deletedAt = new Date();
  await em.flush();
  return endpoint;
}

/**
 * Replaces the signing secret. The current secret becomes the previous one and keeps signing for
 * `overlapSeconds` (0 retires it at once). One UPDATE moves the sealed bytes, so concurrent rotations
 * serialise: each one's predecessor becomes its previous secret. A rotation during an overlap ends the
 * older overlap (only two secrets sign at a time).
 */
export async function rotateEndpointSecret(
  em: EntityManager,
  box: SecretBox,
  id: string,
  overlapSeconds: number,
  now: Date = new Date(),
): Promise<{ endpoint: WebhookEndpoint; secret: string; previousSecretExpiresAt: Date | null }> {
  await getEndpoint(em, id);
  const secret = generateWebhookSecret();
  const previousSecretExpiresAt = overlapSeconds > 0 ? new Date(now.getTime() + overlapSeconds * 1000) : null;
  const updated = await em.nativeUpdate(
    WebhookEndpoint,
    { id, deletedAt: null },
    {
      previousSecret: overlapSeconds > 0 ? raw('secret') : null,
      secret: sealWebhookSecret(box, id, secret),
      previousSecretExpiresAt,
      updatedAt: now,
    },
  );
  if (updated === 0) throw endpointNotFound(id);
  const endpoint = await em.findOneOrFail(WebhookEndpoint, { id }, { refresh: true });
  return { endpoint, secret, previousSecretExpiresAt };
}
