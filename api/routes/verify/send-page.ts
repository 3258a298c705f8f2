import { createHash } from 'node:crypto';
import type { AppContext } from '../../context.ts';
import { etagOf, noneMatch } from '../resolver/http.ts';

/**
 * Strict CSP: everything from our origin, no inline script, no inline style but the page's own `<style>` blocks
 * named by their hashes, no framing, no plugins; fetches only to us (the tap check). Images also from the allowed
 * image origins (VERIFY_IMAGE_HOSTS), none by default. The page runs and renders without any third party.
 */
export function pageCsp(imageOrigins: readonly string[] = [], styleHashes: readonly string[] = []): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    ["style-src 'self'", ...styleHashes].join(' '),
    ["img-src 'self'", ...imageOrigins].join(' '),
    "connect-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** The CSP source of each `<style>` block of a page we rendered (their text is ours: no user input reaches it). */
function styleHashes(html: string): string[] {
  return [...html.matchAll(/<style>([\s\S]*?)<\/style>/g)].map(
    ([, css]) => `'sha256-${createHash('sha256').update(css!).digest('base64')}'`,
  );
}

/** Sends a page with our security headers, its `Link` header and an ETag (a matching If-None-Match: 304). */
export function sendPage(
  ctx: AppContext,
  html: string,
  link: string,
  cacheControl: string,
  options: { imageOrigins?: readonly string[] } = {},
): void {
  ctx.set('Content-Security-Policy', pageCsp(options.imageOrigins, styleHashes(html)));
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.set('Referrer-Policy', 'no-referrer');
  ctx.set('Link', link);
  const etag = etagOf(html);
  ctx.set('Cache-Control', cacheControl);
  ctx.set('ETag', etag);
  ctx.type = 'text/html; charset=utf-8';
  if (noneMatch(ctx, etag)) {
    ctx.status = 304;
    return;
  }
  ctx.body = html;
}
