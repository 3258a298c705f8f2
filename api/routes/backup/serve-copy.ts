import { createHash } from 'node:crypto';
import { z } from 'zod';
import { PEER_ID_PATTERN } from '../../../src/lifecycle/backup/backup-peers.ts';
import { latestHeldCopy } from '../../../src/lifecycle/backup/held-copies.ts';
import type { AppContext } from '../../context.ts';
import { Problem } from '../../problem.ts';
import { defineRoute } from '../../route.ts';
import type { RouteDeps } from '../deps.ts';
import { allowAnyOrigin } from '../resolver/http.ts';

type Served = 'page' | 'public' | 'vc';

function servedOf(ctx: AppContext, format: Served | undefined): Served {
  if (format) return format;
  const best = ctx.accepts('text/html', 'application/json', 'application/ld+json', 'application/vc');
  if (best === 'application/json') return 'public';
  if (best === 'application/ld+json' || best === 'application/vc') return 'vc';
  return 'page';
}

const CONTENT_TYPES: Record<Served, string> = {
  page: 'text/html; charset=utf-8',
  public: 'application/json',
  vc: 'application/ld+json',
};

/**
 * GET /backup/{providerId}/{digital link path}: a passport held here only as a backup copy of the provider's, read
 * only, as the provider served it (the same bytes, so the same hashes).
 */
export function serveCopyRoute(deps: RouteDeps) {
  return defineRoute({
    method: 'get',
    path: '/backup/:providerId/*digitalLink',
    operationId: 'readBackupCopy',
    summary: 'Backup provider: a peer’s passport by its Digital Link, as its primary served it (read only).',
    description:
      'The registry’s backup link (Reg. (EU) 2026/1778 Art. 8(7)(e)): `/backup/{providerId}` followed by the ' +
      'path of the passport’s GS1 Digital Link on the primary (`/01/{gtin}/21/{serial}`, `/01/{gtin}/10/{lot}`, ' +
      '`/01/{gtin}`; `/test/01/…` for the test environment). The latest version held: the page as the primary ' +
      'rendered it (text/html, the default), the public document (format=public or Accept application/json: ' +
      'its RFC 8785 canonical bytes, whose SHA-256 is the version’s public hash) or the signed credential ' +
      '(format=vc or Accept application/ld+json; items only). Every answer says it is a backup copy and of ' +
      'whom: `Backup-Copy-Of: {providerId}`, `Backup-Version`, `Backup-Version-Sha256` (the whole document’s ' +
      'hash), `Repr-Digest` (RFC 9530, of the body). Unknown provider or passport → 404.',
    tags: ['backup'],
    auth: 'none',
    params: z.object({
      providerId: z.string().regex(PEER_ID_PATTERN).describe('The primary provider’s peer id here.'),
    }),
    query: z.object({ format: z.enum(['page', 'public', 'vc']).optional() }),
    responses: {
      200: { description: 'The copy: HTML page, public JSON document or signed credential.' },
      404: { description: 'backup_copy_not_found, or no such part held (a level has no credential).' },
    },
    handler: async (ctx, { params, query }) => {
      allowAnyOrigin(ctx);
      ctx.set(
        'Access-Control-Expose-Headers',
        'Backup-Copy-Of, Backup-Version, Backup-Version-Sha256, Repr-Digest',
      );
      // The path as sent (still percent-encoded), as the primary's Digital Link path is kept.
      const path = ctx.path.slice(`/backup/${params.providerId}`.length);
      const copy =
        path.length <= 300 ? await latestHeldCopy(deps.orm.em.fork(), params.providerId, path) : undefined;
      if (!copy) {
        throw new Problem(
          404,
          'backup_copy_not_found',
          `No backup copy of ${path} from ${params.providerId}.`,
        );
      }
      const served = servedOf(ctx, query.format);
      const body =
        served === 'public' ? copy.publicDocument : served === 'page' ? copy.page : copy.credential;
      if (body === null) throw new Problem(404, 'backup_part_not_held', `No ${served} is held for ${path}.`);
      ctx.set('Backup-Copy-Of', copy.peerId);
      ctx.set('Backup-Version', String(copy.number));
      ctx.set('Backup-Version-Sha256', copy.sha256);
      ctx.set('Repr-Digest', `sha-256=:${createHash('sha256').update(body, 'utf8').digest('base64')}:`);
      ctx.set('Vary', 'Accept');
      ctx.set('Cache-Control', 'public, max-age=60');
      ctx.type = CONTENT_TYPES[served];
      ctx.body = body;
    },
  });
}
