import { z } from 'zod';
import { backupPushSchema } from '../../../src/adapters/backup/protocol.ts';
import { acceptBackupCopy } from '../../../src/lifecycle/backup/accept-copy.ts';
import { peerOfToken } from '../../../src/lifecycle/backup/backup-peers.ts';
import type { AppContext } from '../../context.ts';
import { Problem } from '../../problem.ts';
import { defineRoute } from '../../route.ts';
import type { RouteDeps } from '../deps.ts';

const ack = z.object({
  digitalLink: z.string(),
  number: z.number().int(),
  sha256: z
    .string()
    .describe('The SHA-256 this backup computed over the document’s RFC 8785 canonical form.'),
  publicSha256: z.string(),
  pageSha256: z.string().nullable(),
  credentialSha256: z.string().nullable(),
});

async function authenticatedPeer(ctx: AppContext, deps: RouteDeps): Promise<string> {
  const match = /^Bearer (\S+)$/.exec(ctx.get('authorization'));
  const peer = match ? await peerOfToken(deps.orm.em.fork(), match[1]!) : undefined;
  if (!peer) {
    ctx.set('WWW-Authenticate', 'Bearer realm="backup"');
    throw new Problem(401, 'unauthorized', 'A backup peer’s credential is required (docs/backup.md).');
  }
  return peer;
}

/** PUT /backup/v1/copies: a peer (a primary provider) pushes one version of a passport it publishes. */
export function pushCopyRoute(deps: RouteDeps) {
  return defineRoute({
    method: 'put',
    path: '/backup/v1/copies',
    operationId: 'pushBackupCopy',
    summary: 'Backup provider: keep a peer’s passport version (document, public part, page, credential).',
    description:
      'Authenticated by the credential the operator issued the peer (`npm run cli -- backup-peer:add`). Each ' +
      'part carries the SHA-256 the primary computed; the backup recomputes every one (the document and its ' +
      'public part over their RFC 8785 canonical form, page and credential over their UTF-8 bytes) and refuses ' +
      'a mismatch (422 hash_mismatch). Idempotent by (Digital Link, version number, hash): the same push again ' +
      'answers the same acknowledgement (200); another hash under a number already held → 409 ' +
      'version_conflict. The acknowledgement is the hashes the backup computed (docs/backup.md).',
    tags: ['backup'],
    auth: 'none',
    body: backupPushSchema,
    bodyLimitBytes: 8 * 1024 * 1024,
    responses: {
      201: { description: 'Kept: the backup’s own hashes.', schema: ack },
      200: {
        description: 'Already kept (the same version and hash): the same acknowledgement.',
        schema: ack,
      },
      401: { description: 'unauthorized: no peer credential, or one not registered (or revoked).' },
      409: { description: 'version_conflict: another hash is held under this version number.' },
      422: { description: 'hash_mismatch: a part’s hash is not the one claimed (the part is named).' },
    },
    handler: async (ctx, { body }) => {
      const peer = await authenticatedPeer(ctx, deps);
      const result = await acceptBackupCopy(deps.orm.em.fork(), peer, body);
      if ('refused' in result) {
        const refusal = result.refused;
        if (refusal.kind === 'hash_mismatch') {
          throw new Problem(
            422,
            'hash_mismatch',
            `The ${refusal.part}'s SHA-256 is ${refusal.computed}, not the ${refusal.claimed} claimed.`,
            { extra: { part: refusal.part, claimed: refusal.claimed, computed: refusal.computed } },
          );
        }
        throw new Problem(
          409,
          'version_conflict',
          `Version ${refusal.number} is held with SHA-256 ${refusal.stored}; a version is never replaced.`,
          { extra: { stored: refusal.stored } },
        );
      }
      ctx.status = result.created ? 201 : 200;
      ctx.body = result.ack;
    },
  });
}
