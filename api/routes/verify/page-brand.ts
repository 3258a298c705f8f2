import type { Branding } from '../../../src/accounts/branding/branding.ts';
import { brandLogoPath, brandThemePath } from './brand-assets.ts';

/** What the page shows of the brand: its name and look, and where its owner actions lead (docs/verification-page.md). */
export type PageBrand = Omit<Branding, 'displayName' | 'brandColor' | 'linkColor' | 'logo'> & {
  name: string;
  /** Our own URL of the brand's logo (served from this origin), or none. */
  logoUrl: string | null;
  /** Our own URL of the brand's colours as a stylesheet (the page's CSP takes no inline style), or none. */
  themeUrl: string | null;
};

/** The page's brand from the company's branding (docs/verification-page.md); `fallbackName`: the manufacturer. */
export function pageBrand(branding: Branding, fallbackName: string): PageBrand {
  const { displayName, brandColor, linkColor, logo, ...links } = branding;
  return {
    ...links,
    name: displayName ?? fallbackName,
    logoUrl: logo ? brandLogoPath(logo.hash) : null,
    themeUrl: brandThemePath(brandColor, linkColor),
  };
}
