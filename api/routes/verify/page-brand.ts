import type { Branding } from '../../../src/accounts/branding/branding.ts';
import { brandLogoPath, brandThemeCss } from './brand-assets.ts';

/** What the page shows of the brand: its name and look, and where its owner actions lead (docs/verification-page.md). */
export type PageBrand = Omit<Branding, 'displayName' | 'brandColor' | 'linkColor' | 'logo'> & {
  name: string;
  /** Our own URL of the brand's logo (served from this origin), or none. */
  logoUrl: string | null;
  /** The brand's colours as CSS custom properties (inlined with the page's styles), or none. */
  themeCss: string | null;
};

/** The page's brand from the company's branding (docs/verification-page.md); `fallbackName`: the manufacturer. */
export function pageBrand(branding: Branding, fallbackName: string): PageBrand {
  const { displayName, brandColor, linkColor, logo, ...links } = branding;
  return {
    ...links,
    name: displayName ?? fallbackName,
    logoUrl: logo ? brandLogoPath(logo.hash) : null,
    themeCss: brandThemeCss(brandColor, linkColor),
  };
}
