import type { z } from 'zod';
import { unstorableReason } from '../src/platform/storable-text.ts';
import { type FieldError, Problem } from './problem.ts';

export type InputSource = 'body' | 'query' | 'path';

function invalid(where: InputSource, errors: FieldError[]): Problem {
  const count = errors.length === 1 ? 'one field' : `${errors.length} fields`;
  return new Problem(400, 'validation_failed', `The request ${where} is invalid in ${count}.`, { errors });
}

/** Validates `value` with `schema`; failures become one 400 problem listing every bad field. */
export function validate<T>(schema: z.ZodType<T>, value: unknown, where: InputSource): T {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const errors: FieldError[] = result.error.issues.map((issue) => ({
    path: [where, ...issue.path.map(String)].join('.'),
    message: issue.message,
    code: issue.code,
  }));
  throw invalid(where, errors);
}

/** Bounds every request input is held to before its schema sees it (JSON_MAX_DEPTH, JSON_MAX_OBJECT_KEYS). */
export interface InputLimits {
  /** Deepest nesting of objects and arrays; the value itself is level 1. */
  maxDepth: number;
  /** Most keys of any one object. */
  maxObjectKeys: number;
}

/** Most problems one answer lists: a body full of bad strings is refused just the same. */
const MAX_REPORTED = 50;
const MAX_SEGMENT_CHARS = 100;

const LONE_SURROGATES = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** Why PostgreSQL could not store `text`, as a field error (the rule: src/platform/storable-text.ts). */
export function textProblem(text: string): Pick<FieldError, 'message' | 'code'> | undefined {
  const reason = unstorableReason(text);
  if (reason === 'nul_character') {
    return { code: reason, message: 'Must not contain the NUL character (U+0000).' };
  }
  if (reason === 'unpaired_surrogate') {
    return {
      code: reason,
      message: 'Must be well-formed Unicode: it contains an unpaired surrogate (U+D800–U+DFFF).',
    };
  }
  return undefined;
}

/** A key as it can be shown in a field path: NUL and lone surrogates escaped, long keys shortened. */
function printable(key: string): string {
  const escaped = key
    .replaceAll('\u0000', '\\u0000')
    .replace(LONE_SURROGATES, (c) => `\\u${c.charCodeAt(0).toString(16)}`);
  return escaped.length > MAX_SEGMENT_CHARS ? `${escaped.slice(0, MAX_SEGMENT_CHARS - 1)}…` : escaped;
}

interface Node {
  value: unknown;
  segment: string | undefined;
  parent: Node | undefined;
  depth: number;
}

function pathOf(where: InputSource, node: Node | undefined, last?: string): string {
  const segments: string[] = last === undefined ? [] : [last];
  for (let at = node; at?.segment !== undefined; at = at.parent) segments.push(at.segment);
  return [where, ...segments.reverse()].join('.');
}

/**
 * The problems of one request input (a parsed JSON body, the query or the path parameters) that no schema
 * should have to meet: a string or object key with NUL or an unpaired surrogate (PostgreSQL refuses or mangles
 * them), a number that is not finite (a JSON number beyond the double range, e.g. 1e309, parses to Infinity),
 * objects and arrays nested deeper than `maxDepth`, objects with more than `maxObjectKeys` keys.
 * Walks iteratively in document order, so a body nested 10,000 levels deep costs no stack.
 */
export function inputProblems(value: unknown, where: InputSource, limits: InputLimits): FieldError[] {
  const errors: FieldError[] = [];
  const stack: Node[] = [{ value, segment: undefined, parent: undefined, depth: 1 }];
  while (stack.length > 0 && errors.length < MAX_REPORTED) {
    const node = stack.pop()!;
    const current = node.value;
    if (typeof current === 'string') {
      const problem = textProblem(current);
      if (problem) errors.push({ path: pathOf(where, node), ...problem });
      continue;
    }
    if (typeof current === 'number') {
      // JSON.parse turns a number too large for a double (1e309) into ±Infinity; nothing downstream can store,
      // sign or hash that (JSON.stringify writes it as null), so it is the caller's to fix, wherever it sits.
      if (!Number.isFinite(current)) {
        errors.push({
          path: pathOf(where, node),
          code: 'non_finite_number',
          message:
            'Must be a finite number: this one is too large for a 64-bit float (it overflows to infinity).',
        });
      }
      continue;
    }
    if (current === null || typeof current !== 'object') continue;
    if (node.depth > limits.maxDepth) {
      errors.push({
        path: pathOf(where, node),
        code: 'too_deep',
        message: `Nested more than ${limits.maxDepth} levels deep; at most ${limits.maxDepth} levels of objects and arrays are accepted.`,
      });
      continue;
    }
    const children: Node[] = [];
    if (Array.isArray(current)) {
      for (let index = 0; index < current.length; index++) {
        children.push({ value: current[index], segment: String(index), parent: node, depth: node.depth + 1 });
      }
    } else {
      const keys = Object.keys(current);
      if (keys.length > limits.maxObjectKeys) {
        errors.push({
          path: pathOf(where, node),
          code: 'too_many_keys',
          message: `Has ${keys.length} keys; at most ${limits.maxObjectKeys} keys per object are accepted.`,
        });
        continue;
      }
      for (const key of keys) {
        const problem = textProblem(key);
        if (problem) {
          errors.push({
            path: pathOf(where, node, printable(key)),
            code: problem.code,
            message: `This key ${problem.message.charAt(0).toLowerCase()}${problem.message.slice(1)}`,
          });
          continue;
        }
        const member = (current as Record<string, unknown>)[key];
        children.push({ value: member, segment: printable(key), parent: node, depth: node.depth + 1 });
      }
    }
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]!);
  }
  return errors.slice(0, MAX_REPORTED);
}

/**
 * The shared gate of every request input: throws one 400 `validation_failed` problem naming each string that
 * cannot be stored and each bound exceeded (see `inputProblems`); returns `value` unchanged otherwise.
 */
export function checkInput<T>(value: T, where: InputSource, limits: InputLimits): T {
  const errors = inputProblems(value, where, limits);
  if (errors.length > 0) throw invalid(where, errors);
  return value;
}
