/**
 * Text colour on a header background: white or ink, whichever has the higher WCAG contrast, as the verification
 * page picks it (src/accounts/branding/colour-contrast.ts; the console bundle cannot import the service's code).
 */
function textOn(hex: string): string {
  const n = Number.parseInt(hex.slice(1), 16);
  const linear = (v: number) => (v / 255 <= 0.03928 ? v / 255 / 12.92 : ((v / 255 + 0.055) / 1.055) ** 2.4);
  const l = 0.2126 * linear((n >> 16) & 255) + 0.7152 * linear((n >> 8) & 255) + 0.0722 * linear(n & 255);
  // Contrast with white (l = 1) against contrast with ink (#1a1a1a, l ≈ 0.0103).
  return 1.05 / (l + 0.05) >= (l + 0.05) / 0.0603 ? '#ffffff' : '#1a1a1a';
}

const HEX = /^#[0-9a-fA-F]{6}$/;

/**
 * A phone-sized sketch of the verification page with the draft's name, logo and colours, redrawn on every
 * change (the page itself only shows what is saved).
 */
export function BrandingPreview({
  draft,
  logoUrl,
  companyName,
}: {
  draft: { displayName: string; brandColor: string; linkColor: string };
  logoUrl: string | null;
  companyName: string;
}) {
  const brand = HEX.test(draft.brandColor) ? draft.brandColor : '#1f3a5f';
  const link = HEX.test(draft.linkColor) ? draft.linkColor : '#0b57d0';
  const name = draft.displayName.trim() || companyName;
  return (
    <figure className="branding-preview" aria-label="Preview of a passport’s page">
      <div className="preview-header" style={{ background: brand, color: textOn(brand) }}>
        {logoUrl ? <img src={logoUrl} alt="" /> : null}
        <span>
          <strong>{name}</strong>
          <br />
          <small>Digital Product Passport</small>
        </span>
      </div>
      <div className="preview-body">
        <div className="preview-verdict">
          <strong>Authentic</strong>
          <p>The tag’s signature is genuine: this is the product the passport describes.</p>
        </div>
        <p className="preview-card">
          <strong>What you can do</strong>
          <br />
          <span style={{ color: link, textDecoration: 'underline' }}>Care instructions</span>
          <br />
          <span className="preview-button" style={{ background: link }}>
            Scan the tag
          </span>
        </p>
      </div>
      <figcaption className="hint">
        Preview with your colours; save to show them on every passport’s page.
      </figcaption>
    </figure>
  );
}
