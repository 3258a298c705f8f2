import type { AppContext } from '../context.ts';
import { Problem } from '../problem.ts';

const JSON_TYPES = ['application/json', 'application/*+json'];

export interface BodyLimits {
  /** Largest body in bytes (413 above it). */
  bytes: number;
  /** How long the whole body may take to arrive (408 after it, and the connection is closed). */
  timeoutMs: number;
  /** Also accept application/x-www-form-urlencoded (read into an object of strings). */
  form?: boolean;
}

/**
 * Reads a JSON request body within `limits`, keeping the raw bytes (signature checks need them).
 * Too large → 413 (the read stops at the limit), slower than `timeoutMs` (a slow or truncated upload) → 408
 * with `Connection: close`, not JSON → 415, malformed → 400.
 */
export async function readJsonBody(ctx: AppContext, limits: BodyLimits): Promise<unknown> {
  const limitBytes = limits.bytes;
  if (!hasBody(ctx)) return undefined;
  const form = limits.form === true && ctx.is('application/x-www-form-urlencoded') !== false;
  if (!form && !ctx.is(JSON_TYPES)) {
    throw new Problem(
      415,
      'unsupported_media_type',
      'Send the request body as JSON (Content-Type: application/json).',
    );
  }
  const declared = Number(ctx.get('content-length'));
  if (Number.isFinite(declared) && declared > limitBytes) throw tooLarge(limitBytes);
  const raw = await readLimited(ctx, limitBytes, limits.timeoutMs);
  ctx.state.rawBody = raw;
  if (raw.length === 0) return undefined;
  if (form) return Object.fromEntries(new URLSearchParams(raw.toString('utf8')));
  try {
    return JSON.parse(raw.toString('utf8'));
  } catch (error) {
    throw new Problem(
      400,
      'malformed_json',
      `The request body is not valid JSON: ${(error as Error).message}`,
    );
  }
}

function hasBody(ctx: AppContext): boolean {
  const length = ctx.get('content-length');
  if (length !== '') return Number(length) > 0;
  return ctx.get('transfer-encoding') !== '';
}

function tooLarge(limitBytes: number): Problem {
  return new Problem(413, 'payload_too_large', `The request body exceeds the limit of ${limitBytes} bytes.`, {
    extra: { limitBytes },
  });
}

function tooSlow(timeoutMs: number): Problem {
  return new Problem(
    408,
    'request_timeout',
    `The request body did not arrive within ${timeoutMs} ms; the connection is closed.`,
    { headers: { Connection: 'close' }, extra: { timeoutMs } },
  );
}

function readLimited(ctx: AppContext, limitBytes: number, timeoutMs: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const req = ctx.req;
    const timer = setTimeout(() => {
      cleanup();
      reject(tooSlow(timeoutMs));
    }, timeoutMs);
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limitBytes) {
        cleanup();
        req.resume();
        reject(tooLarge(limitBytes));
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      cleanup();
      resolve(Buffer.concat(chunks));
    };
    const onError = (error: Error) => {
      cleanup();
      reject(new Problem(400, 'body_read_failed', `The request body could not be read: ${error.message}`));
    };
    const cleanup = () => {
      clearTimeout(timer);
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
  });
}
