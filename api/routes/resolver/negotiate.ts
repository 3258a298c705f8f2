import type { PassportFormat as Format } from '../../../src/passport/views/passport-request.ts';
import type { AppContext } from '../../context.ts';

export type Representation = { kind: 'page' } | { kind: 'format'; format: Format; contentType: string };

const JSON_TYPE = 'application/json';
const LD_JSON = 'application/ld+json';
const VC_TYPE = 'application/vc';
const LINKSET = 'application/linkset+json';
const HTML = 'text/html';
const VC_JWT = 'application/vc+jwt';

/** The media type each format is served as (vc: application/vc when the client asked for exactly that). */
export function formatContentType(format: Format, preferVc = false): string {
  if (format === 'vc') return preferVc ? VC_TYPE : LD_JSON;
  if (format === 'linkset') return LINKSET;
  if (format === 'untp') return LD_JSON;
  if (format === 'vc-jwt') return VC_JWT;
  return JSON_TYPE;
}

/**
 * What a request without `format` gets. A request that names no machine representation (no Accept, `* / *`, a
 * browser's text/html, a type we do not make) gets the default link, the verification page (GS1-Conformant
 * Resolver: redirect to the default link unless the request says otherwise; the spec: browsers see the page).
 * A machine names what it wants: application/json → the public JSON, application/ld+json or application/vc →
 * vc, application/linkset+json → linkset, application/vc+jwt → vc-jwt.
 */
export function negotiate(ctx: AppContext, format: Format | undefined): Representation {
  if (format) {
    const preferVc = format === 'vc' && ctx.accepts(LD_JSON, VC_TYPE) === VC_TYPE;
    return { kind: 'format', format, contentType: formatContentType(format, preferVc) };
  }
  // HTML first: what a wildcard (or no Accept at all) matches.
  const best = ctx.accepts(HTML, JSON_TYPE, LD_JSON, VC_TYPE, LINKSET, VC_JWT);
  if (best === JSON_TYPE) return { kind: 'format', format: 'public', contentType: JSON_TYPE };
  if (best === LD_JSON || best === VC_TYPE) return { kind: 'format', format: 'vc', contentType: best };
  if (best === LINKSET) return { kind: 'format', format: 'linkset', contentType: LINKSET };
  if (best === VC_JWT) return { kind: 'format', format: 'vc-jwt', contentType: VC_JWT };
  return { kind: 'page' };
}
