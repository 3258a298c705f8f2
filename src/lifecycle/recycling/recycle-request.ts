import type { EntityManager } from '@mikro-orm/postgresql';
import { ApplicationFailure, WorkflowFailedError } from '@temporalio/client';
import { z } from 'zod';
import { Passport } from '../../platform/db/entities/index.ts';
import type { TenantScope } from '../../platform/db/tenant-scope.ts';
import { DomainError } from '../../platform/errors.ts';
import type { RecycleInput } from '../../processes/recycle.ts';
import { recyclerAddress, resolveRewardReceiver } from './deposit.ts';

export const tokenIdSchema = z
  .union([z.string(), z.number().int().nonnegative()])
  .transform(String)
  .pipe(z.string().regex(/^[1-9]\d{0,77}$/, 'a token id: decimal digits'));

export const logRecycleBody = z.object({
  tokenId: tokenIdSchema,
  locationName: z.string().trim().min(1).max(200),
  latitude: z.number().min(-90).max(90),
  longitude: z.number().min(-180).max(180),
  rewardReceiver: z
    .string()
    .regex(/^0x[0-9a-fA-F]{40}$/, 'an EVM address (0x + 40 hex digits)')
    .optional()
    .describe('Who receives the deposit; omitted: the recycling company’s custodial wallet.'),
});
export type LogRecycleBody = z.infer<typeof logRecycleBody>;

export const alreadyRecycled = (tokenId: string) =>
  new DomainError(
    'conflict',
    'already_recycled',
    `Passport ${tokenId} is already recycled; its deposit was released.`,
  );

/**
 * Checks the request against the passport as stored (scoped to the caller: another company's token is
 * not found) and builds the workflow input.
 */
export async function prepareRecycle(
  em: EntityManager,
  scope: TenantScope,
  body: LogRecycleBody,
  custodyMasterSecret: string | undefined,
): Promise<RecycleInput> {
  const passport = await em.findOne(Passport, { tokenId: body.tokenId });
  if (!passport) {
    throw new DomainError('not_found', 'passport_not_found', `No passport with token id ${body.tokenId}.`);
  }
  if (passport.status === 'RECYCLED') throw alreadyRecycled(body.tokenId);
  const recycler = recyclerAddress(custodyMasterSecret, scope.companyId, scope.environment);
  return {
    scope,
    tokenId: body.tokenId,
    recycler,
    rewardReceiver: resolveRewardReceiver(body.rewardReceiver, recycler),
    location: { locationName: body.locationName, latitude: body.latitude, longitude: body.longitude },
    mintBlock: passport.mintBlock,
  };
}

/** Turns a failed recycle workflow into the domain error a client should see. */
export function recycleFailureToDomainError(error: unknown, tokenId: string): DomainError | undefined {
  if (!(error instanceof WorkflowFailedError)) return undefined;
  let cause: unknown = error.cause;
  while (cause && !(cause instanceof ApplicationFailure) && cause instanceof Error) cause = cause.cause;
  const type = cause instanceof ApplicationFailure ? cause.type : undefined;
  const message = cause instanceof Error ? cause.message : error.message;
  if (type === 'AlreadyRecycled') return alreadyRecycled(tokenId);
  if (type === 'ChainRejected') {
    return new DomainError('rejected', 'chain_rejected', `The chain refused the recycle: ${message}`);
  }
  return new DomainError('unavailable', 'recycle_failed', `The recycle did not complete: ${message}`);
}
