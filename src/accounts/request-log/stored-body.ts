import { redactJson, redactText } from './redact.ts';

/** A body as the log keeps it: redacted text (JSON when it was JSON), cut at the size cap. */
export interface StoredBody {
  text: string | null;
  /** Size of the redacted body before any cut, in bytes. */
  bytes: number;
  truncated: boolean;
}

export const NO_BODY: StoredBody = { text: null, bytes: 0, truncated: false };

/** The longest prefix of `text` within `maxBytes` of UTF-8, never splitting a character. */
function cut(text: string, maxBytes: number): string {
  if (Buffer.byteLength(text) <= maxBytes) return text;
  let end = Math.min(text.length, maxBytes);
  while (end > 0 && Buffer.byteLength(text.slice(0, end)) > maxBytes) end = Math.floor(end * 0.9);
  while (end < text.length && Buffer.byteLength(text.slice(0, end + 1)) <= maxBytes) end++;
  const prefix = text.slice(0, end);
  // Not half of a surrogate pair.
  return prefix.isWellFormed() ? prefix : prefix.slice(0, -1);
}

function capped(text: string, maxBytes: number): StoredBody {
  const clean = text.replaceAll('\u0000', '').toWellFormed();
  const bytes = Buffer.byteLength(clean);
  return bytes <= maxBytes
    ? { text: clean, bytes, truncated: false }
    : { text: cut(clean, maxBytes), bytes, truncated: true };
}

const isJsonType = (type: string) => /^application\/(?:[\w.+-]+\+)?json\b/i.test(type);

function parsedText(text: string, type: string): unknown {
  if (/^application\/x-www-form-urlencoded\b/i.test(type))
    return Object.fromEntries(new URLSearchParams(text));
  if (isJsonType(type) || /^\s*[[{]/.test(text)) {
    try {
      return JSON.parse(text);
    } catch {
      return undefined;
    }
  }
  return undefined;
}

/**
 * What the log keeps of a request or response body: JSON (or a form) parsed, redacted and written back as
 * compact JSON; other text redacted by shape; binary and streamed bodies as a one-line description.
 */
export function storedBody(body: unknown, contentType: string, maxBytes: number): StoredBody {
  if (body === undefined || body === null) return NO_BODY;
  if (Buffer.isBuffer(body) || body instanceof Uint8Array) {
    const buffer = Buffer.from(body);
    if (buffer.length === 0) return NO_BODY;
    if (isJsonType(contentType) || /^(text\/|application\/x-www-form-urlencoded)/i.test(contentType)) {
      return storedBody(buffer.toString('utf8'), contentType, maxBytes);
    }
    return capped(`[${buffer.length} bytes of ${contentType || 'binary data'}]`, maxBytes);
  }
  if (typeof body === 'string') {
    const parsed = parsedText(body, contentType);
    return capped(parsed === undefined ? redactText(body) : JSON.stringify(redactJson(parsed)), maxBytes);
  }
  if (typeof (body as { pipe?: unknown }).pipe === 'function') {
    return capped(`[streamed ${contentType || 'body'}]`, maxBytes);
  }
  return capped(JSON.stringify(redactJson(body)) ?? '', maxBytes);
}
