/** WCAG 2.1 contrast (success criterion 1.4.3): colours as `#rrggbb`. */

const channel = (value: number) => {
  const c = value / 255;
  return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
};

function rgb(hex: string): [number, number, number] {
  const n = Number.parseInt(hex.slice(1), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

export function luminance(hex: string): number {
  const [r, g, b] = rgb(hex);
  return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
}

export function contrastRatio(a: string, b: string): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

/** WCAG AA for normal text. */
export const AA_CONTRAST = 4.5;

export const WHITE = '#ffffff';
export const INK = '#1a1a1a';

/** The text colour on a background: white or ink, whichever contrasts more (one always reaches AA). */
export function textOn(background: string): string {
  return contrastRatio(background, WHITE) >= contrastRatio(background, INK) ? WHITE : INK;
}

/** The colour darkened step by step until it reaches AA against white: a suggestion for a refused link colour. */
export function darkenedForWhite(hex: string): string {
  let [r, g, b] = rgb(hex);
  const toHex = () => `#${[r, g, b].map((v) => v.toString(16).padStart(2, '0')).join('')}`;
  while (contrastRatio(toHex(), WHITE) < AA_CONTRAST) {
    [r, g, b] = [r, g, b].map((v) => Math.floor(v * 0.92)) as [number, number, number];
  }
  return toHex();
}
