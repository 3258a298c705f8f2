import { parseIpfsUrl } from '../../standards/ipfs/json.ts';

/**
 * Where the verification page loads a passport's product image from, or null when it must not show it: an IPFS
 * image through our own `/ipfs/` gateway; an https image on one of the allowed origins (VERIFY_IMAGE_HOSTS) as
 * it is; anything else (another host, http, credentials in the URL) is not shown. docs/verification-page.md.
 */
export function pageImage(image: string | null, allowedOrigins: readonly string[]): string | null {
  if (!image) return null;
  const cid = parseIpfsUrl(image);
  if (cid) return `/ipfs/${cid}`;
  let url: URL;
  try {
    url = new URL(image);
  } catch {
    return null;
  }
  if (url.protocol !== 'https:' || url.username !== '' || url.password !== '') return null;
  return allowedOrigins.includes(url.origin) ? url.href : null;
}
