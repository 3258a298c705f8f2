import { createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll } from 'vitest';
import type { WorkflowGateway } from '../../src/adapters/temporal/start.ts';
import type { Orm } from '../../src/platform/db/orm.ts';
import { scopedEntityManager, type TenantScope } from '../../src/platform/db/tenant-scope.ts';
import type { SecretBox } from '../../src/platform/secret-box.ts';
import { createEndpoint } from '../../src/webhooks/endpoints.ts';
import type { EventType } from '../../src/webhooks/event-types.ts';
import { recordEvent } from '../../src/webhooks/outbox.ts';
import { startTestStack, type TestStack } from '../support/stack.ts';

export interface ReceivedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface Reply {
  status: number;
  body?: string;
  headers?: Record<string, string>;
  /** Never answer (the sender's deadline must end the attempt). */
  hang?: boolean;
}

export interface Receiver {
  url: string;
  requests: ReceivedRequest[];
  /** How to answer the n-th request (0-based); change it between steps of a test. */
  reply: (request: ReceivedRequest, index: number) => Reply | Promise<Reply>;
  /** Resolves once `count` requests have arrived (fails after `timeoutMs`). */
  waitFor(count: number, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

/** A real HTTP server on 127.0.0.1 that records every request and answers as told. */
export async function startReceiver(reply: Receiver['reply'] = () => ({ status: 200 })): Promise<Receiver> {
  const requests: ReceivedRequest[] = [];
  const hanging = new Set<() => void>();
  const receiver: Receiver = {
    url: '',
    requests,
    reply,
    async waitFor(count, timeoutMs = 20_000) {
      const deadline = Date.now() + timeoutMs;
      while (requests.length < count) {
        if (Date.now() > deadline) throw new Error(`receiver got ${requests.length} of ${count} requests`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    async close() {
      for (const release of hanging) release();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', async () => {
      const received: ReceivedRequest = {
        method: request.method ?? '',
        path: request.url ?? '',
        headers: request.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      const index = requests.push(received) - 1;
      const answer = await receiver.reply(received, index);
      if (answer.hang) {
        hanging.add(() => response.destroy());
        return;
      }
      response.writeHead(answer.status, { 'content-type': 'text/plain', ...answer.headers });
      response.end(answer.body ?? '');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  return receiver;
}

/** An endpoint created through the endpoint API's use case (the test environment allows 127.0.0.1). */
export async function createTestEndpoint(
  orm: Orm,
  box: SecretBox,
  scope: TenantScope,
  url: string,
  eventTypes: EventType[] = [],
): Promise<{ id: string; secret: string }> {
  const { endpoint, secret } = await createEndpoint(
    scopedEntityManager(orm.em, scope),
    box,
    scope,
    { policy: { allowPrivate: true } },
    { url, eventTypes },
  );
  return { id: endpoint.id, secret };
}

/** Queues an event in the outbox as the state changes do (committed at once). */
export async function queueEvent(
  orm: Orm,
  scope: TenantScope,
  eventType: EventType,
  data: Record<string, unknown>,
): Promise<string> {
  const em = scopedEntityManager(orm.em, scope);
  const eventId = recordEvent(em, scope, eventType, data);
  await em.flush();
  return eventId;
}

/** Independent of src/webhooks/signing.ts: the spec's check, as a receiver following the spec writes it. */
export function specSignature(secret: string, body: string): string {
  return createHmac('sha256', Buffer.from(secret, 'utf8')).update(body).digest('hex');
}

/** Independent Standard Webhooks signature (key = base64-decoded part after `whsec_`). */
export function standardWebhooksSignature(
  secret: string,
  id: string,
  timestamp: string,
  body: string,
): string {
  const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
  return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}

export const waitUntil = async (check: () => Promise<boolean>, timeoutMs = 20_000, what = 'condition') => {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
};

/**
 * A test file's stack without the worker process's dispatcher (the file drives dispatching itself) on
 * time-skipping Temporal, started before its tests and closed after them with every receiver it started.
 */
export function webhookTestStack(): {
  stack(): TestStack;
  gateway(): WorkflowGateway;
  receivers: Receiver[];
  sql<T>(query: string, params?: unknown[]): Promise<T[]>;
} {
  let stack: TestStack | undefined;
  let gateway: WorkflowGateway | undefined;
  const receivers: Receiver[] = [];
  beforeAll(async () => {
    stack = await startTestStack({ dispatcher: false, temporal: 'time-skipping' });
    gateway = { client: stack.temporal.client, taskQueuePrefix: stack.api.config.temporal.taskQueuePrefix };
  });
  afterAll(async () => {
    for (const receiver of receivers) await receiver.close();
    await stack?.close();
  });
  return {
    stack: () => stack!,
    gateway: () => gateway!,
    receivers,
    sql: <T>(query: string, params: unknown[] = []) =>
      stack!.api.db.orm.em.fork().execute<T[]>(query, params),
  };
}
