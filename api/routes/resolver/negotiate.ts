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
 * What a request without `format` gets: a browser (Accept prefers text/html) the verification page, a machine
 * the representation its Accept names (application/ld+json or application/vc → vc, application/linkset+json →
 * linkset), anything else (no Accept, * / *, application/json, a type we do not make) the public JSON.
 */
export function negotiate(ctx: AppContext, format: Format | undefined): Representation {
  if (format) {
    const preferVc = format === 'vc' && ctx.accepts(LD_JSON, VC_TYPE) === VC_TYPE;
    return { kind: 'format', format, contentType: formatContentType(format, preferVc) };
  }
  if (ctx.get('Accept') === '') return { kind: 'format', format: 'public', contentType: JSON_TYPE };
  const best = ctx.accepts(JSON_TYPE, HTML, LD_JSON, VC_TYPE, LINKSET, VC_JWT);
  if (best === HTML) return { kind: 'page' };
  if (best === LD_JSON || best === VC_TYPE) return { kind: 'format', format: 'vc', contentType: best };
  if (best === LINKSET) return { kind: 'format', format: 'linkset', contentType: LINKSET };
  if (best === VC_JWT) return { kind: 'format', format: 'vc-jwt', contentType: VC_JWT };
  return { kind: 'format', format: 'public', contentType: JSON_TYPE };
}
