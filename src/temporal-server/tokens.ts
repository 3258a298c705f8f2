import { notFound } from './errors.ts';

/** Task tokens are opaque to workers; ours are small JSON documents naming the task they belong to. */
export type TaskToken =
  | { kind: 'workflow'; namespace: string; runId: string; scheduledEventId: number; attempt: number }
  | { kind: 'activity'; namespace: string; runId: string; scheduledEventId: number; attempt: number }
  | { kind: 'query'; namespace: string; runId: string; queryId: string };

export function encodeToken(token: TaskToken): Buffer {
  return Buffer.from(JSON.stringify(token), 'utf8');
}

export function decodeToken(bytes: Uint8Array | null | undefined): TaskToken {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(bytes ?? []).toString('utf8'));
    if (parsed && typeof parsed === 'object' && 'kind' in parsed && 'runId' in parsed)
      return parsed as TaskToken;
  } catch {
    // fall through
  }
  throw notFound('Task token is not valid.');
}
