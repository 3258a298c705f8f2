import type { EntityManager } from '@mikro-orm/postgresql';
import { requestHash, runIdempotent, type StoredResponse } from '../src/platform/idempotency/store.ts';
import type { AppContext } from './context.ts';
import { Problem } from './problem.ts';

const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

export const IDEMPOTENCY_DOC =
  ' Send an Idempotency-Key header (1–255 visible ASCII characters) to make retries safe: the same key with ' +
  'the same request replays the first successful response (header Idempotent-Replayed: true) for 24 hours; ' +
  'the same key with a different request answers 422 idempotency_key_reused.';

/**
 * Answers with `produce`'s response, or the stored one when the request repeats an Idempotency-Key.
 * `atomic`: `produce` only writes to the database, through the entity manager it is given, in the same
 * transaction as the key (see runIdempotent).
 */
export async function respondIdempotently(
  ctx: AppContext,
  produce: (em: EntityManager) => Promise<StoredResponse>,
  options: { atomic?: boolean } = {},
): Promise<void> {
  const key = ctx.get('idempotency-key');
  if (key !== '' && !KEY_PATTERN.test(key)) {
    throw new Problem(
      400,
      'invalid_idempotency_key',
      'Idempotency-Key must be 1–255 visible ASCII characters.',
      {
        errors: [{ path: 'header.idempotency-key', message: 'Invalid format', code: 'invalid_format' }],
      },
    );
  }
  const request =
    key === ''
      ? null
      : {
          key,
          method: ctx.method,
          path: ctx.path,
          hash: requestHash(ctx.method, ctx.path, ctx.state.rawBody),
        };
  const response = await runIdempotent(ctx.state.em!, ctx.state.scope!, request, produce, options);
  if (response.replayed) ctx.set('Idempotent-Replayed', 'true');
  ctx.status = response.status;
  ctx.body = response.body;
}
