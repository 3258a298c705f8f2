import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { Next } from 'koa';
import type { AppContext } from '../../context.ts';
import type { PageAssets } from './render.ts';

const FILES = {
  'verify.css': 'text/css; charset=utf-8',
  'verify.js': 'text/javascript; charset=utf-8',
  'icon.svg': 'image/svg+xml',
} as const;

type AssetName = keyof typeof FILES;

const assets = new Map(
  (Object.keys(FILES) as AssetName[]).map((name) => {
    const content = readFileSync(new URL(`./assets/${name}`, import.meta.url));
    const version = createHash('sha256').update(content).digest('base64url').slice(0, 12);
    return [name, { content, version, type: FILES[name] }];
  }),
);

/** The page's asset URLs, versioned by content so they can be cached for good. */
export const PAGE_ASSETS: PageAssets = {
  styles: assets.get('verify.css')!.content.toString('utf8'),
  js: `/verify/assets/verify.js?v=${assets.get('verify.js')!.version}`,
  icon: `/verify/assets/icon.svg?v=${assets.get('icon.svg')!.version}`,
};

const PUBLIC_PREFIXES = ['/01/', '/verify/', '/.well-known/', '/credentials/status/', '/contexts/'];
const PUBLIC_PATHS = new Set(['/did.json', '/test/did.json']);

function isPublicPath(path: string): boolean {
  return PUBLIC_PATHS.has(path) || PUBLIC_PREFIXES.some((prefix) => path.startsWith(prefix));
}

/**
 * The public passport's static parts, in front of the routes: the verification page's own assets (served by
 * us: no CDN) and CORS preflight answers for the public paths (GS1 resolvers answer OPTIONS). ERP data
 * (Authorization) is not offered cross-origin: Authorization is not an allowed header.
 */
export function publicPassportStatic() {
  return async (ctx: AppContext, next: Next) => {
    if (ctx.method === 'OPTIONS' && isPublicPath(ctx.path)) {
      ctx.set('Access-Control-Allow-Origin', '*');
      ctx.set(
        'Access-Control-Allow-Methods',
        ctx.path === '/verify/tap' ? 'POST, OPTIONS' : 'GET, HEAD, OPTIONS',
      );
      ctx.set('Access-Control-Allow-Headers', 'Accept, Content-Type, If-None-Match, x-service-env');
      ctx.set('Access-Control-Max-Age', '86400');
      ctx.set('Allow', ctx.path === '/verify/tap' ? 'POST, OPTIONS' : 'GET, HEAD, OPTIONS');
      ctx.status = 204;
      return;
    }
    const match = /^\/verify\/assets\/([a-z.]+)$/.exec(ctx.path);
    const asset = match ? assets.get(match[1] as AssetName) : undefined;
    if (asset && (ctx.method === 'GET' || ctx.method === 'HEAD')) {
      ctx.set(
        'Cache-Control',
        ctx.query.v === asset.version ? 'public, max-age=31536000, immutable' : 'public, max-age=300',
      );
      ctx.set('X-Content-Type-Options', 'nosniff');
      ctx.type = asset.type;
      ctx.body = asset.content;
      return;
    }
    await next();
  };
}
