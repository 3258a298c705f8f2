import { call, type Environment } from './api.ts';

/** The branding of the company's verification pages (GET/PATCH /v1/company/branding). */
export interface Branding {
  displayName: string | null;
  brandColor: string | null;
  linkColor: string | null;
  defaultLanguage: string;
  careUrl: string | null;
  repairUrl: string | null;
  resaleUrl: string | null;
  recyclingUrl: string | null;
  contactEmail: string | null;
  contactUrl: string | null;
  logoUrl: string | null;
}

export type BrandingChange = Partial<Omit<Branding, 'logoUrl'>>;

/** The languages the verification page speaks, by their own names. */
export const PAGE_LANGUAGES = [
  ['en', 'English'],
  ['de', 'Deutsch'],
  ['fr', 'Français'],
  ['it', 'Italiano'],
  ['es', 'Español'],
  ['nl', 'Nederlands'],
  ['pl', 'Polski'],
] as const;

type Answer = { branding: Branding };

export const branding = {
  get: async (env: Environment) => (await call<Answer>(env, 'GET', '/v1/company/branding')).branding,
  save: async (env: Environment, change: BrandingChange) =>
    (await call<Answer>(env, 'PATCH', '/v1/company/branding', change)).branding,
  uploadLogo: async (env: Environment, image: string) =>
    (await call<Answer>(env, 'PUT', '/v1/company/branding/logo', { image })).branding,
  removeLogo: async (env: Environment) =>
    (await call<Answer>(env, 'DELETE', '/v1/company/branding/logo')).branding,
};

/** A file's bytes in base64, as the logo upload takes them. */
export async function fileBase64(file: File): Promise<string> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(binary);
}
