import { z } from 'zod';
import type { ReadinessCheck } from '../../src/runtime/readiness.ts';
import type { AppContext } from '../context.ts';
import { Problem } from '../problem.ts';
import { defineRoute, type RouteSpec } from '../route.ts';

export type { ReadinessCheck };

export function healthRoutes(checks: Record<string, ReadinessCheck>): RouteSpec[] {
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
      summary: 'Readiness: PostgreSQL, Temporal and each configured chain answer.',
      tags: ['operations'],
      auth: 'none',
      responses: {
        200: {
          description: 'Ready.',
          schema: z.object({ status: z.literal('ready'), checks: z.record(z.string(), z.literal('ok')) }),
        },
        503: { description: 'A dependency is not reachable.' },
      },
      handler: async (ctx: AppContext) => {
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
        const failing = results.filter(([, result]) => result !== 'ok');
        if (failing.length > 0) {
          throw new Problem(
            503,
            'not_ready',
            `Not ready: ${failing.map(([n, r]) => `${n} (${r})`).join(', ')}.`,
            {
              extra: { checks: Object.fromEntries(results) },
            },
          );
        }
        ctx.body = { status: 'ready', checks: Object.fromEntries(results) };
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
