import type { Branding } from '../../../src/accounts/branding/branding.ts';
import { brandLogoPath, brandThemePath } from './brand-assets.ts';

/** What the page shows of the brand: its name and look, and where its owner actions lead (docs/verification-page.md). */
export interface PageBrand {
  name: string;
  /** Our own URL of the brand's logo (served from this origin), or none. */
  logoUrl: string | null;
  /** Our own URL of the brand's colours as a stylesheet (the page's CSP takes no inline style), or none. */
  themeUrl: string | null;
  /** The language the brand writes its passports in. */
  defaultLanguage: string;
  careUrl: string | null;
  repairUrl: string | null;
  resaleUrl: string | null;
  recyclingUrl: string | null;
  contactEmail: string | null;
  contactUrl: string | null;
}

/** The page's brand from the company's branding (docs/verification-page.md); `fallbackName`: the manufacturer. */
export function pageBrand(branding: Branding, fallbackName: string): PageBrand {
  return {
    name: branding.displayName ?? fallbackName,
    logoUrl: branding.logo ? brandLogoPath(branding.logo.hash) : null,
    themeUrl: brandThemePath(branding.brandColor, branding.linkColor),
    defaultLanguage: branding.defaultLanguage,
    careUrl: branding.careUrl,
    repairUrl: branding.repairUrl,
    resaleUrl: branding.resaleUrl,
    recyclingUrl: branding.recyclingUrl,
    contactEmail: branding.contactEmail,
    contactUrl: branding.contactUrl,
  };
}
