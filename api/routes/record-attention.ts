import { z } from 'zod';

/**
 * A status resource's `attention` member: the workflow's chain step is done but its database record keeps
 * failing; it retries until it is recorded (operators find such workflows by DppAttention).
 */
export function recordAttention(done: string) {
  return z
    .object({ reason: z.literal('record_failed'), error: z.string(), failedRounds: z.number().int() })
    .optional()
    .describe(`${done} but not recorded yet: the workflow retries until it is (operators: DppAttention).`);
}
