import { z } from 'zod';

/** `https://images.brand.example` → its origin; undefined unless an https origin with nothing after it. */
function httpsOrigin(entry: string): string | undefined {
  let url: URL;
  try {
    url = new URL(entry);
  } catch {
    return undefined;
  }
  const bare = url.username === '' && url.password === '' && url.search === '' && url.hash === '';
  return url.protocol === 'https:' && bare && url.pathname === '/' ? url.origin : undefined;
}

/**
 * `https://images.brand.example, https://cdn.example:8443` → their origins. Only https origins, no path, query
 * or credentials: the consumer page's CSP `img-src` names them as they are.
 */
const originList = z.string().transform((value, ctx) => {
  const origins = new Set<string>();
  for (const entry of value.split(',').map((part) => part.trim())) {
    if (entry === '') continue;
    const origin = httpsOrigin(entry);
    if (!origin) {
      ctx.addIssue({
        code: 'custom',
        message: `${entry}: must be an https origin (https://host or https://host:port, nothing after it)`,
      });
      return z.NEVER;
    }
    origins.add(origin);
  }
  return [...origins];
});

/** The consumer pages' variables of the environment schema (src/platform/config/env.ts); docs/configuration.md. */
export const pageEnvShape = {
  VERIFY_IMAGE_HOSTS: originList.optional(),
};

type PageEnv = z.infer<z.ZodObject<typeof pageEnvShape>>;

/** What the consumer verification page may load from elsewhere (docs/verification-page.md "Branding"). */
export interface PageConfig {
  /** Origins a passport's product image may be shown from, besides ours (VERIFY_IMAGE_HOSTS); none by default. */
  imageOrigins: readonly string[];
}

export function pageConfig(e: PageEnv): PageConfig {
  return { imageOrigins: e.VERIFY_IMAGE_HOSTS ?? [] };
}
