import { z } from 'zod';
import { logoByHash } from '../../../src/accounts/branding/branding.ts';
import { textOn } from '../../../src/accounts/branding/colour-contrast.ts';
import type { AppContext } from '../../context.ts';
import { Problem } from '../../problem.ts';
import { defineRoute } from '../../route.ts';
import type { RouteDeps } from '../deps.ts';

/** A stored logo's address: content-addressed, so it is cached for good and a new logo is a new address. */
export function brandLogoPath(hash: string): string {
  return `/verify/brand/logo/${hash}`;
}

/** The stylesheet with a brand's colours (the page's CSP takes no inline style): computed from its query alone. */
export function brandThemePath(brandColor: string | null, linkColor: string | null): string | null {
  if (!brandColor && !linkColor) return null;
  const query = new URLSearchParams();
  if (brandColor) query.set('brand', brandColor.slice(1));
  if (linkColor) query.set('link', linkColor.slice(1));
  return `/verify/brand/theme.css?${query}`;
}

const hex = z
  .string()
  .regex(/^[0-9a-f]{6}$/)
  .optional();

export function brandAssetRoutes(deps: RouteDeps) {
  return [
    defineRoute({
      method: 'get',
      path: '/verify/brand/logo/:hash',
      operationId: 'brandLogo',
      summary: 'A company’s logo as its verification pages show it (served by us, never hotlinked).',
      tags: ['gs1'],
      auth: 'none',
      params: z.object({ hash: z.string().regex(/^[0-9a-f]{64}$/) }),
      responses: {
        200: { description: 'The image.', contentType: 'image/*' },
        404: { description: 'logo_not_found' },
      },
      handler: async (ctx: AppContext, { params }) => {
        const logo = await logoByHash(deps.orm.em.fork(), params.hash);
        if (!logo) throw new Problem(404, 'logo_not_found', 'No logo with this hash.');
        ctx.set('Cache-Control', 'public, max-age=31536000, immutable');
        ctx.set('X-Content-Type-Options', 'nosniff');
        // An SVG opened on its own runs nothing and loads nothing (it was checked on upload; this is the second lock).
        ctx.set('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'; sandbox");
        ctx.type = logo.type;
        ctx.body = logo.bytes;
      },
    }),
    defineRoute({
      method: 'get',
      path: '/verify/brand/theme.css',
      operationId: 'brandTheme',
      summary: 'The verification page’s brand colours as a stylesheet (header background and text, links).',
      tags: ['gs1'],
      auth: 'none',
      query: z.object({ brand: hex, link: hex }),
      responses: { 200: { description: 'The stylesheet.', contentType: 'text/css' } },
      handler: async (ctx: AppContext, { query }) => {
        const rules = [
          query.brand && `--brand: #${query.brand}; --on-brand: ${textOn(`#${query.brand}`)};`,
          query.link && `--link: #${query.link};`,
        ].filter(Boolean);
        ctx.set('Cache-Control', 'public, max-age=31536000, immutable');
        ctx.set('X-Content-Type-Options', 'nosniff');
        ctx.type = 'text/css; charset=utf-8';
        ctx.body = `:root { ${rules.join(' ')} }\n`;
      },
    }),
  ];
}
