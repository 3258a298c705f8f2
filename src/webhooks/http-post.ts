import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';

export interface WebhookPost {
  url: URL;
  body: string;
  headers: Record<string, string>;
  /** Answers DNS for the connection (the vetted address), so the socket goes where the check looked. */
  lookup?: LookupFunction;
  timeoutMs: number;
  /** How much of the response body to keep; the rest is not read. */
  maxSnippetBytes: number;
}

export interface WebhookResponse {
  /** The receiver's status, or null when no response arrived (refused, reset, timed out). */
  statusCode: number | null;
  error: string | null;
  snippet: string | null;
  durationMs: number;
}

/** PostgreSQL text cannot hold NUL; receivers' bodies and error texts may. */
export function storableText(text: string, maxChars = 2048): string {
  return text.replaceAll('\u0000', '').slice(0, maxChars);
}

function describeError(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  const message = error instanceof Error ? error.message : String(error);
  return code && !message.includes(code) ? `${code}: ${message}` : message;
}

/**
 * One POST, never following redirects (node:http does not), over a fresh connection each time (no stale
 * keep-alive socket can fail an attempt), with one deadline from connect to the last byte kept. Never
 * rejects: every outcome, including a network error or the deadline, comes back as a WebhookResponse.
 */
export function postWebhook(post: WebhookPost): Promise<WebhookResponse> {
  const started = performance.now();
  const transport = post.url.protocol === 'https:' ? https : http;
  return new Promise((resolve) => {
    let settled = false;
    let statusCode: number | null = null;
    const chunks: Buffer[] = [];
    let kept = 0;
    const finish = (error: string | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      const snippet = chunks.length > 0 ? storableText(Buffer.concat(chunks).toString('utf8')) : null;
      resolve({ statusCode, error, snippet, durationMs: Math.round(performance.now() - started) });
    };
    const request = transport.request(post.url, {
      method: 'POST',
      agent: false,
      headers: { ...post.headers, 'content-length': String(Buffer.byteLength(post.body)) },
      ...(post.lookup ? { lookup: post.lookup } : {}),
    });
    const deadline = setTimeout(() => {
      const error = `timed out after ${post.timeoutMs} ms${statusCode === null ? '' : ' reading the response'}`;
      finish(error);
      request.destroy();
    }, post.timeoutMs);
    request.on('error', (error) => finish(describeError(error)));
    request.on('response', (response) => {
      statusCode = response.statusCode ?? null;
      response.on('data', (chunk: Buffer) => {
        if (kept >= post.maxSnippetBytes) return;
        const part = chunk.subarray(0, post.maxSnippetBytes - kept);
        chunks.push(part);
        kept += part.length;
        // Enough kept: stop downloading whatever else the receiver sends.
        if (kept >= post.maxSnippetBytes) {
          finish(null);
          response.destroy();
        }
      });
      response.on('end', () => finish(null));
      response.on('error', (error) => finish(statusCode === null ? describeError(error) : null));
      response.on('close', () => finish(null));
    });
    request.end(post.body);
  });
}
