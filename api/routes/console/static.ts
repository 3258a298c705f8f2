import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { Next } from 'koa';
import type { AppContext } from '../../context.ts';
import { Problem } from '../../problem.ts';

/** Where the console's build lands (scripts/console-build.ts writes it; console/ holds its sources). */
export const CONSOLE_DIST = fileURLToPath(new URL('../../../console/dist/', import.meta.url));

/**
 * Strict: only this origin's scripts, styles and calls; nothing inline, nothing from elsewhere, no framing.
 * Vite's build emits external files only (no inline script or style), so no hash or nonce is needed.
 */
export const CONSOLE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "manifest-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

const TYPES: Record<string, string> = {
  js: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
  svg: 'image/svg+xml',
  png: 'image/png',
  ico: 'image/x-icon',
  json: 'application/json',
  woff2: 'font/woff2',
};

const FILE = /^\/console\/((?:assets\/)?[A-Za-z0-9_-][A-Za-z0-9._-]*\.([a-z0-9]+))$/;

function securityHeaders(ctx: AppContext): void {
  ctx.set('Content-Security-Policy', CONSOLE_CSP);
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.set('X-Frame-Options', 'DENY');
  ctx.set('Referrer-Policy', 'same-origin');
  ctx.set('Cross-Origin-Opener-Policy', 'same-origin');
  ctx.set('Cross-Origin-Resource-Policy', 'same-origin');
}

/**
 * The web console at /console: its built files (content-hashed assets cached for good) and, for every other
 * path under /console, its index.html (the console routes in the browser). A browser opening / is sent there.
 */
export function consoleStatic(dist = CONSOLE_DIST) {
  return async (ctx: AppContext, next: Next) => {
    // A person who types the service's bare address lands on the console; API clients keep the 404 problem.
    if (
      ctx.path === '/' &&
      (ctx.method === 'GET' || ctx.method === 'HEAD') &&
      ctx.accepts('json', 'html') === 'html'
    ) {
      ctx.redirect('/console');
      return;
    }
    if (ctx.path !== '/console' && !ctx.path.startsWith('/console/')) return next();
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') {
      throw new Problem(405, 'method_not_allowed', 'The console is read with GET.', {
        headers: { Allow: 'GET, HEAD' },
      });
    }
    securityHeaders(ctx);
    const file = FILE.exec(ctx.path);
    if (file) {
      const content = await readFile(`${dist}${file[1]}`).catch(() => undefined);
      if (content === undefined) throw new Problem(404, 'not_found', 'No such console file.');
      ctx.set(
        'Cache-Control',
        file[1]!.startsWith('assets/') ? 'public, max-age=31536000, immutable' : 'public, max-age=300',
      );
      ctx.type = TYPES[file[2]!] ?? 'application/octet-stream';
      ctx.body = content;
      return;
    }
    const index = await readFile(`${dist}index.html`).catch(() => undefined);
    if (index === undefined) {
      throw new Problem(
        503,
        'console_not_built',
        'The console is not built: npm start builds it, or run npm run console:build.',
      );
    }
    ctx.set('Cache-Control', 'no-cache');
    ctx.type = 'text/html; charset=utf-8';
    ctx.body = ctx.path === RESET_PAGE ? resetPageWithoutScript(ctx, index) : index;
  };
}

/** Where the password mails (a reset, an invitation) lead: the console's page, /reset-password without script. */
const RESET_PAGE = '/console/reset-password';
const RESET_TOKEN = /^[A-Za-z0-9_-]{20,100}$/;

/**
 * The reset page carries its token in the address: not stored by caches, and the same-origin Referrer-Policy
 * keeps it from other sites. Browsers
 * without JavaScript get a link to the API's own form (GET /reset-password, which posts without script).
 */
function resetPageWithoutScript(ctx: AppContext, index: Buffer): Buffer | string {
  // Referrer-Policy stays same-origin (securityHeaders): no-referrer would make the page's later writes (a
  // sign-in from the same document) carry Origin: null, which the cookie writes' origin check refuses.
  ctx.set('Cache-Control', 'no-store');
  const token = ctx.query.token;
  if (typeof token !== 'string' || !RESET_TOKEN.test(token)) return index;
  const fallback =
    `<noscript><p>This page needs JavaScript. <a href="/reset-password?token=${token}">Set your password ` +
    'without JavaScript</a>.</p></noscript>';
  return index.toString('utf8').replace('<div id="root"></div>', `${fallback}<div id="root"></div>`);
}
