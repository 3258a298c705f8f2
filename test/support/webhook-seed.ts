import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import type { TestApi, TestTenant } from './api.ts';

export const PUBLIC_WEBHOOK_URL = 'https://93.184.215.14/hooks/dpp';

export interface SeededDelivery {
  id: string;
  eventId: string;
}

/** Rows as the dispatcher and the delivery workflow leave them, written straight into a test database. */
export function webhookSeeder(api: TestApi) {
  const sql = (query: string, params: unknown[] = []) => api.db.orm.em.getConnection().execute(query, params);

  async function createEndpoint(tenant: TestTenant, body: Record<string, unknown> = {}): Promise<string> {
    const res = await api.call('POST', '/v1/webhooks/endpoints', {
      key: tenant.testKey,
      body: { url: PUBLIC_WEBHOOK_URL, ...body },
    });
    assert.equal(res.status, 201, res.text);
    return res.body.endpoint.id;
  }

  async function seedEvent(tenant: TestTenant, eventType = 'asset.minted'): Promise<string> {
    const id = randomUUID();
    await sql(
      `insert into outbox_events (id, company_id, environment, event_type, data, occurred_at, dispatched_at)
       values (?, ?, 'test', ?, '{"tokenId":"1"}', now(), now())`,
      [id, tenant.companyId, eventType],
    );
    return id;
  }

  /** A delivery row with `attempts` failed attempt rows (6 for a dead one unless told otherwise). */
  async function seedDelivery(
    tenant: TestTenant,
    endpointId: string,
    options: {
      eventId?: string;
      status?: string;
      createdAt?: string;
      deadLetteredAt?: string;
      attempts?: number;
    } = {},
  ): Promise<SeededDelivery> {
    const eventId = options.eventId ?? (await seedEvent(tenant));
    const id = randomUUID();
    const status = options.status ?? 'dead';
    const attempts = options.attempts ?? (status === 'dead' ? 6 : 0);
    const deadAt = status === 'dead' ? (options.deadLetteredAt ?? new Date().toISOString()) : null;
    await sql(
      `insert into webhook_deliveries (id, company_id, environment, event_id, endpoint_id, event_type, status,
         attempt_count, last_status_code, last_error, dead_lettered_at, created_at, updated_at)
       values (?, ?, 'test', ?, ?, 'asset.minted', ?, ?, ?, ?, ?::timestamptz, coalesce(?::timestamptz, now()), now())`,
      [
        id,
        tenant.companyId,
        eventId,
        endpointId,
        status,
        attempts,
        attempts ? 500 : null,
        attempts ? 'HTTP 500' : null,
        deadAt,
        options.createdAt ?? null,
      ],
    );
    for (let attempt = attempts; attempt >= 1; attempt--) {
      await sql(
        `insert into webhook_attempts (delivery_id, attempt, started_at, duration_ms, status_code, error, response_snippet)
         values (?, ?, now(), 12, 500, 'HTTP 500', 'oops')`,
        [id, attempt],
      );
    }
    return { id, eventId };
  }

  return { sql, createEndpoint, seedEvent, seedDelivery };
}

/** The input a workflow run was started with (first payload of its first history event). */
export async function startedInput(temporal: TestWorkflowEnvironment, workflowId: string) {
  const history = await temporal.client.workflow.getHandle(workflowId).fetchHistory();
  const payload = history.events?.[0]?.workflowExecutionStartedEventAttributes?.input?.payloads?.[0];
  return JSON.parse(Buffer.from(payload!.data!).toString('utf8'));
}
