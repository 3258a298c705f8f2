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

/** A brand that set nothing: the manufacturer's name, our look, English texts, no links. */
export function plainBrand(name: string): PageBrand {
  return {
    name,
    logoUrl: null,
    themeUrl: null,
    defaultLanguage: 'en',
    careUrl: null,
    repairUrl: null,
    resaleUrl: null,
    recyclingUrl: null,
    contactEmail: null,
    contactUrl: null,
  };
}
