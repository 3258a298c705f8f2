/**
 * Who writes a passport's product-group data: the brand (`operator`, the passport's own company), or a company
 * the brand granted `repairer` or `recycler` (disclosure_grants, docs/disclosure.md). The role decides what the
 * write may change (docs/battery-passport.md, "Who writes what").
 */
export type ContentWriterRole = 'operator' | 'repairer' | 'recycler';

export interface ContentWriter {
  companyId: string;
  companyName: string;
  role: ContentWriterRole;
}
