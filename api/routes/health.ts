import { z } from 'zod';
import type { ReadinessCheck } from '../../src/platform/runtime/readiness.ts';
import type { AppContext } from '../context.ts';
import { Problem } from '../problem.ts';
import { defineRoute, type RouteSpec } from '../route.ts';

export type { ReadinessCheck };

/**
 * Conditions an operator must see that are no reason to take the process out of the load balancer (a chain
 * signer low on gas money: reads, enrolment and the public passport pages still work): name → description.
 */
export type ReadinessWarnings = () => Promise<Record<string, string>>;

export function healthRoutes(
  checks: Record<string, ReadinessCheck>,
  readWarnings: ReadinessWarnings = async () => ({}),
): RouteSpec[] {
  return [
    defineRoute({
      method: 'get',
      path: '/healthz',
      operationId: 'health',
      summary: 'Liveness: the process is up.',
      tags: ['operations'],
      auth: 'none',
      responses: { 200: { description: 'Alive.', schema: z.object({ status: z.literal('ok') }) } },
      handler: async (ctx: AppContext) => {
        ctx.body = { status: 'ok' };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/readyz',
      operationId: 'ready',
      summary:
        'Readiness: PostgreSQL, Temporal and each configured chain answer; `warnings` names a chain signer low on funds (still ready).',
      tags: ['operations'],
      auth: 'none',
      responses: {
        200: {
          description: 'Ready.',
          schema: z.object({
            status: z.literal('ready'),
            checks: z.record(z.string(), z.literal('ok')),
            warnings: z.record(z.string(), z.string()).optional(),
          }),
        },
        503: { description: 'A dependency is not reachable.' },
      },
      handler: async (ctx: AppContext) => {
        const warningsRead = withTimeout(readWarnings(), 3000).catch(() => ({}));
        const results = await Promise.all(
          Object.entries(checks).map(async ([name, check]) => {
            try {
              await withTimeout(check(), 3000);
              return [name, 'ok'] as const;
            } catch (error) {
              return [name, (error as Error).message || 'failed'] as const;
            }
          }),
        );
        const warnings = await warningsRead;
        const detail = Object.keys(warnings).length > 0 ? { warnings } : {};
        const failing = results.filter(([, result]) => result !== 'ok');
        if (failing.length > 0) {
          throw new Problem(
            503,
            'not_ready',
            `Not ready: ${failing.map(([n, r]) => `${n} (${r})`).join(', ')}.`,
            {
              extra: { checks: Object.fromEntries(results), ...detail },
            },
          );
        }
        ctx.body = { status: 'ready', checks: Object.fromEntries(results), ...detail };
      },
    }),
  ];
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
