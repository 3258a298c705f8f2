import type { PassportRequest, RequestSide } from '../../../src/passport/views/passport-request.ts';
import { representPassport } from '../../../src/passport/views/representation.ts';
import { GS1_VOCABULARY, type LinkType } from '../../../src/standards/gs1/link-types.ts';
import type { AppContext } from '../../context.ts';
import type { PublicPassportDeps } from './public-passport-deps.ts';

/**
 * GS1-Conformant Resolver: when a link type has several links, the one whose media type the request asks for.
 * Only gs1:dpp has several (the credential, and with UNTP data the UNTP credential and its VC-JOSE form): a
 * request for it whose Accept prefers a type other than the first link's (application/vc+jwt) gets that link;
 * any other request, the first link, as before. Undefined: no better choice than the first.
 */
export async function chosenLink(
  ctx: AppContext,
  deps: PublicPassportDeps,
  request: Omit<PassportRequest, 'ask'>,
  side: RequestSide,
  linkType: LinkType,
): Promise<{ href: string; anchor: string } | undefined> {
  if (linkType !== 'dpp' || ctx.get('Accept') === '') return undefined;
  let anchor = '';
  const answer = await representPassport(
    deps.views,
    { ...request, ask: { kind: 'format', format: 'linkset' } },
    { ...side, found: (found) => (anchor = found) },
  );
  if (answer.kind !== 'document') return undefined;
  const context = (JSON.parse(answer.body) as { linkset: Record<string, unknown>[] }).linkset[0];
  const targets = context?.[`${GS1_VOCABULARY}${linkType}`] as { href: string; type?: string }[] | undefined;
  if (!targets || targets.length < 2) return undefined;
  const types = [...new Set(targets.flatMap((target) => (target.type ? [target.type] : [])))];
  const best = ctx.accepts(...types);
  if (!best || best === targets[0]!.type) return undefined;
  const chosen = targets.find((target) => target.type === best);
  return chosen ? { href: chosen.href, anchor } : undefined;
}
