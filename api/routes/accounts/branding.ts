import { z } from 'zod';
import {
  type Branding,
  type BrandingChange,
  readBranding,
  removeLogo,
  setLogo,
  updateBranding,
} from '../../../src/accounts/branding/branding.ts';
import { MAX_LOGO_BYTES } from '../../../src/accounts/branding/logo-image.ts';
import { httpUrl } from '../../../src/lifecycle/mint/mint-request.ts';
import { PAGE_LANGUAGES } from '../../../src/passport/views/i18n/languages.ts';
import type { AppContext } from '../../context.ts';
import { requireRight } from '../../middleware/require-right.ts';
import { Problem } from '../../problem.ts';
import { defineRoute } from '../../route.ts';
import { brandLogoPath } from '../verify/brand-assets.ts';

const color = z
  .string()
  .regex(/^#[0-9a-fA-F]{6}$/, 'a colour as #rrggbb')
  .transform((value) => value.toLowerCase());

const brandingSchema = z.object({
  displayName: z
    .string()
    .nullable()
    .describe('The name in the page’s header; null: the manufacturer’s name.'),
  brandColor: z
    .string()
    .nullable()
    .describe('The header’s background, #rrggbb; its text is white or ink, whichever contrasts more.'),
  linkColor: z
    .string()
    .nullable()
    .describe('Links and buttons, #rrggbb; at least 4.5:1 against white (WCAG AA).'),
  defaultLanguage: z
    .enum(PAGE_LANGUAGES)
    .describe('The language the company writes its passports’ own texts in.'),
  careUrl: z.string().nullable(),
  repairUrl: z.string().nullable(),
  resaleUrl: z.string().nullable(),
  recyclingUrl: z.string().nullable(),
  contactEmail: z.string().nullable(),
  contactUrl: z.string().nullable(),
  logoUrl: z.string().nullable().describe('The stored logo as the pages load it (our origin); null: none.'),
});

const brandingBody = z.object({ success: z.literal(true), branding: brandingSchema });

function answer(branding: Branding) {
  const { logo, ...rest } = branding;
  return { success: true, branding: { ...rest, logoUrl: logo ? brandLogoPath(logo.hash) : null } };
}

const TAGS = ['company'];
const WRITE_NOTE = ' People: owners only (403 role_forbidden); API keys act for the company.';

export const brandingRoutes = [
  defineRoute({
    method: 'get',
    path: '/v1/company/branding',
    operationId: 'getBranding',
    summary:
      'How the company’s verification pages look in this environment: name, logo, colours, language, owner links.',
    tags: TAGS,
    auth: 'apiKeyOrUser',
    responses: { 200: { description: 'The branding (defaults where never set).', schema: brandingBody } },
    handler: async (ctx: AppContext) => {
      await requireRight(ctx, 'read', 'see the branding');
      ctx.body = answer(await readBranding(ctx.state.em!, ctx.state.scope!));
    },
  }),
  defineRoute({
    method: 'patch',
    path: '/v1/company/branding',
    operationId: 'updateBranding',
    summary:
      'Change the branding of the company’s verification pages; members left out stay, null clears one.',
    description:
      'Per environment, like the company settings: a test key changes the test pages. The pages show a change at ' +
      'once. A linkColor below 4.5:1 against white is refused (422 colour_contrast, with the nearest darker ' +
      `colour that passes); the header’s text colour follows brandColor by itself.${WRITE_NOTE}`,
    tags: TAGS,
    auth: 'apiKeyOrUser',
    body: z
      .object({
        displayName: z.string().trim().min(1).max(80).nullable().optional(),
        brandColor: color.nullable().optional(),
        linkColor: color.nullable().optional(),
        defaultLanguage: z.enum(PAGE_LANGUAGES).optional(),
        careUrl: httpUrl.nullable().optional(),
        repairUrl: httpUrl.nullable().optional(),
        resaleUrl: httpUrl.nullable().optional(),
        recyclingUrl: httpUrl.nullable().optional(),
        contactEmail: z.email().max(254).nullable().optional(),
        contactUrl: httpUrl.nullable().optional(),
      })
      .strict(),
    responses: {
      200: { description: 'The branding as it is now.', schema: brandingBody },
      422: { description: 'colour_contrast: linkColor fails WCAG AA against white.' },
    },
    handler: async (ctx: AppContext, { body }) => {
      await requireRight(ctx, 'manageCompany', 'change the branding');
      ctx.body = answer(await updateBranding(ctx.state.em!, ctx.state.scope!, body as BrandingChange));
    },
  }),
  defineRoute({
    method: 'put',
    path: '/v1/company/branding/logo',
    operationId: 'uploadBrandLogo',
    summary:
      'Store the company’s logo (PNG, JPEG, WebP or plain SVG, at most 256 KiB), replacing the one before.',
    description:
      '`image` is the file’s bytes in base64. Its type is read from the bytes, not from the name: anything else ' +
      'is refused (400 logo_type), an SVG with script, event handlers, external references or embedded content ' +
      `too (400 logo_unsafe_svg), a larger file with 400 logo_too_large. Served from our origin only.${WRITE_NOTE}`,
    tags: TAGS,
    auth: 'apiKeyOrUser',
    bodyLimitBytes: Math.ceil((MAX_LOGO_BYTES * 4) / 3) + 4096,
    body: z.object({ image: z.base64().min(1) }).strict(),
    responses: {
      200: { description: 'The branding with its new logo.', schema: brandingBody },
      400: {
        description: 'logo_type, logo_unsafe_svg, logo_too_large, logo_invalid, or a field fails its schema.',
      },
    },
    handler: async (ctx: AppContext, { body }) => {
      await requireRight(ctx, 'manageCompany', 'change the branding');
      const bytes = Buffer.from(body.image, 'base64');
      if (bytes.length === 0) throw new Problem(400, 'logo_invalid', 'The logo is empty.');
      ctx.body = answer(await setLogo(ctx.state.em!, ctx.state.scope!, bytes));
    },
  }),
  defineRoute({
    method: 'delete',
    path: '/v1/company/branding/logo',
    operationId: 'removeBrandLogo',
    summary: 'Remove the company’s logo: the pages show its name alone.',
    tags: TAGS,
    auth: 'apiKeyOrUser',
    responses: { 200: { description: 'The branding without a logo.', schema: brandingBody } },
    handler: async (ctx: AppContext) => {
      await requireRight(ctx, 'manageCompany', 'change the branding');
      ctx.body = answer(await removeLogo(ctx.state.em!, ctx.state.scope!));
    },
  }),
];
