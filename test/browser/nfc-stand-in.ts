/**
 * An NDEFReader stand-in injected before the page's own scripts (Chromium has no NFC hardware here): it behaves
 * like Web NFC's reader (scan() starts reading until its signal aborts; a read tag fires `reading` with the
 * tag's NDEF message) and lets the test "hold a tag to the phone" with `window.__nfc.read(url)`.
 */
export const NDEF_READER_STAND_IN = `
(() => {
  const nfc = { readers: [], scans: 0 };
  nfc.read = (url) => {
    const bytes = new TextEncoder().encode(url);
    const message = { records: [{ recordType: 'url', data: new DataView(bytes.buffer) }] };
    for (const reader of nfc.readers) {
      if (!reader.scanning) continue;
      const event = new Event('reading');
      Object.assign(event, { serialNumber: '04:c1:b2:c3:d4:e5:01', message });
      if (typeof reader.onreading === 'function') reader.onreading(event);
      reader.dispatchEvent(event);
    }
  };
  class NDEFReader extends EventTarget {
    constructor() {
      super();
      this.scanning = false;
      this.onreading = null;
      this.onreadingerror = null;
      nfc.readers.push(this);
    }
    async scan(options = {}) {
      nfc.scans += 1;
      this.scanning = true;
      options.signal?.addEventListener('abort', () => {
        this.scanning = false;
      });
    }
  }
  window.NDEFReader = NDEFReader;
  window.__nfc = nfc;
})();
`;

/** WCAG contrast ratio of an element's text against the first opaque background behind it (run in the page). */
export const CONTRAST_OF = `(element) => {
  const rgb = (value) => (value.match(/[\\d.]+/g) || []).map(Number);
  const background = (node) => {
    for (let n = node; n; n = n.parentElement) {
      const [r, g, b, a = 1] = rgb(getComputedStyle(n).backgroundColor);
      if (a > 0) return [r, g, b];
    }
    return [255, 255, 255];
  };
  const luminance = ([r, g, b]) => {
    const c = [r, g, b].map((v) => {
      const s = v / 255;
      return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2];
  };
  const fg = luminance(rgb(getComputedStyle(element).color));
  const bg = luminance(background(element));
  return (Math.max(fg, bg) + 0.05) / (Math.min(fg, bg) + 0.05);
}`;
