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

/** The brand's colours as CSS custom properties (`#rrggbb` each), or none. */
export function brandThemeCss(brandColor: string | null, linkColor: string | null): string | null {
  const rules = [
    brandColor && `--brand: ${brandColor}; --on-brand: ${textOn(brandColor)};`,
    linkColor && `--link: ${linkColor};`,
  ].filter(Boolean);
  return rules.length === 0 ? null : `:root { ${rules.join(' ')} }\n`;
}

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
  ];
}
