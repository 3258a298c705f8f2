import Router from '@koa/router';
import { ContentIntegrityError, IpfsUnavailableError } from '../../src/adapters/ipfs/errors.ts';
import type { ContentStore, StoredContent } from '../../src/adapters/ipfs/store.ts';
import { cidToKey, parseCid } from '../../src/standards/ipfs/cid.ts';
import type { AppContext, AppState } from '../context.ts';
import { Problem } from '../problem.ts';

/** Content is addressed by its hash, so a response for a CID never changes. */
const IMMUTABLE = 'public, max-age=31536000, immutable';
// Stored bytes are served from the API's origin: never let a browser run them as a page.
const SANDBOX = "default-src 'none'; sandbox";

/**
 * `GET /ipfs/:cid`: a small public gateway for the content this service publishes as `ipfs://<cid>` (passport
 * metadata and its files). Any spelling of a CID is accepted; the ETag is the CIDv1 base32 form.
 */
export function ipfsRouter(store: ContentStore): Router<AppState, AppContext> {
  const router = new Router<AppState, AppContext>();
  router.get('/ipfs/:cid', async (ctx) => {
    const given = ctx.params.cid ?? '';
    const parsed = parseCid(given);
    if (parsed === undefined) {
      throw new Problem(400, 'invalid_cid', `${JSON.stringify(given.slice(0, 100))} is not a CID.`, {
        errors: [
          { path: 'cid', message: 'Expected a CID such as bafkrei… or bafybei…', code: 'invalid_cid' },
        ],
      });
    }
    const cid = cidToKey(parsed);
    const etag = `"${cid}"`;
    if (matchesIfNoneMatch(ctx.get('If-None-Match'), cid)) {
      if (!(await guarded(() => store.has(cid)))) throw notFound(cid);
      setContentHeaders(ctx, etag);
      ctx.status = 304;
      return;
    }
    const content: StoredContent | undefined = await guarded(() => store.get(cid));
    if (content === undefined) throw notFound(cid);
    setContentHeaders(ctx, etag);
    // Set before the body so Koa keeps the stored type verbatim (no charset added, no guessing).
    ctx.set('Content-Type', content.contentType);
    ctx.body = content.bytes;
  });
  return router;
}

function setContentHeaders(ctx: AppContext, etag: string): void {
  ctx.set('ETag', etag);
  ctx.set('Cache-Control', IMMUTABLE);
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.set('Content-Security-Policy', SANDBOX);
}

function notFound(cid: string): Problem {
  return new Problem(404, 'content_not_found', `No content is stored under ${cid}.`);
}

/** True when an `If-None-Match` list names this CID's ETag (weak or strong) or is `*`. */
function matchesIfNoneMatch(header: string, cid: string): boolean {
  if (header === '') return false;
  return header.split(',').some((tag) => {
    const value = tag.trim();
    return value === '*' || value.replace(/^W\//, '') === `"${cid}"`;
  });
}

/**
 * Runs a store call, turning store failures into problems a client can act on. The original error rides along
 * as `cause`, so the problem handler's log line names the corrupt file or the unreachable node.
 */
async function guarded<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    let problem: Problem | undefined;
    if (error instanceof ContentIntegrityError) {
      problem = new Problem(
        500,
        'content_integrity',
        'The stored content failed its integrity check and is withheld.',
        {
          extra: { cid: error.cid },
        },
      );
    } else if (error instanceof IpfsUnavailableError) {
      problem = new Problem(503, 'ipfs_unavailable', 'The content store is unavailable; try again later.', {
        headers: { 'Retry-After': '30' },
      });
    }
    if (problem === undefined) throw error;
    problem.cause = error;
    throw problem;
  }
}
