import type { AppContext } from '../../context.ts';
import { etagOf, noneMatch } from '../resolver/http.ts';

/**
 * Strict CSP: everything from our origin, no inline script or style, no framing, no plugins; fetches only to
 * us (the tap check). The page runs and renders without any third party.
 */
export const PAGE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self'",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** Sends a page with our security headers, its `Link` header and an ETag (a matching If-None-Match: 304). */
export function sendPage(ctx: AppContext, html: string, link: string, cacheControl: string): void {
  ctx.set('Content-Security-Policy', PAGE_CSP);
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
