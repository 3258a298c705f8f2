import type { z } from 'zod';
import { type FieldError, Problem } from './problem.ts';

/** Validates `value` with `schema`; failures become one 400 problem listing every bad field. */
export function validate<T>(schema: z.ZodType<T>, value: unknown, where: 'body' | 'query' | 'path'): T {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const errors: FieldError[] = result.error.issues.map((issue) => ({
    path: [where, ...issue.path.map(String)].join('.'),
    message: issue.message,
    code: issue.code,
  }));
  const count = errors.length === 1 ? 'one field' : `${errors.length} fields`;
  throw new Problem(400, 'validation_failed', `The request ${where} is invalid in ${count}.`, { errors });
}
