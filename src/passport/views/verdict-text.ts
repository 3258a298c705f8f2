import type { TapVerdict } from './tap-verdict.ts';

/** What the verification page says about a tap (the page and POST /verify/tap use the same words). */
export const VERDICT_TEXT: Record<TapVerdict, { title: string; message: string }> = {
  authentic: {
    title: 'Authentic',
    message:
      'The tag’s cryptographic signature is genuine and was used for the first time: this is the product ' +
      'the passport describes.',
  },
  replayed: {
    title: 'Replayed',
    message:
      'This tag signature was already used before. A copied tag can only repeat old signatures. Tap the ' +
      'product’s own tag again: a genuine tag signs every tap anew.',
  },
  forged: {
    title: 'Not authentic',
    message: 'The tag’s signature does not match this product’s chip. Do not trust this item’s tag.',
  },
  unverifiable: {
    title: 'Cannot be checked yet',
    message:
      'The manufacturer has not set up the keys that check this product’s tag, so its signature cannot be ' +
      'verified. The passport below is genuine; the tag is neither confirmed nor refuted.',
  },
};
