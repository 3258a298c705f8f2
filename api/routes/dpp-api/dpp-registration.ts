import { z } from 'zod';
import { requestRegistryRetry } from '../../../src/lifecycle/registry/dispatcher.ts';
import { dppIdOf } from '../../../src/passport/record/passport-header.ts';
import { readRegistration } from '../../../src/passport/registry/registration-read.ts';
import { DomainError } from '../../../src/platform/errors.ts';
import type { AppContext } from '../../context.ts';
import { requireRight } from '../../middleware/require-right.ts';
import { defineRoute } from '../../route.ts';
import { ownPassport } from './dpp-content.ts';
import { ownLevel } from './level-lifecycle.ts';

// The passport's registration in the EU DPP registry (docs/registry.md): its state, the registry's identifier,
// the registry's reason when it refused; and the retry a brand asks for once it fixed the data.

const dppIdParam = z
  .string()
  .min(1)
  .max(200)
  .describe('The digitalProductPassportId (urn:uuid:…) or its UUID.');

const registration = z.object({
  digitalProductPassportId: z.string(),
  state: z.enum(['pending', 'registered', 'refused']),
  registryId: z.string().nullable().describe('The registry’s unique registration identifier.'),
  uniqueProductIdentifier: z.string().nullable(),
  registeredAt: z.string().nullable(),
  refusal: z
    .object({
      reason: z.string(),
      fields: z.array(z.object({ path: z.string(), message: z.string() })),
      refusedAt: z.string(),
    })
    .nullable()
    .describe('The registry’s reason for its latest refusal; null when not refused.'),
  pendingVersions: z
    .number()
    .int()
    .describe('Versions and status changes not yet acknowledged by the registry.'),
  lastRegisteredVersion: z.object({ number: z.number().int(), sha256: z.string() }).nullable(),
});

/** The caller's own passport (item, batch or model) a dppId names: its service UID. */
async function ownServiceUid(ctx: AppContext, dppId: string): Promise<string> {
  const level = await ownLevel(ctx, dppId);
  return level ? level.serviceUid : (await ownPassport(ctx, dppId)).serviceUid;
}

async function registrationOf(ctx: AppContext, serviceUid: string) {
  const found = await readRegistration(ctx.state.em!, ctx.state.scope!.environment, serviceUid);
  if (!found) {
    throw new DomainError(
      'not_found',
      'registration_not_found',
      `No registration for ${dppIdOf(serviceUid)} yet.`,
    );
  }
  return { digitalProductPassportId: dppIdOf(serviceUid), ...found };
}

export const dppRegistrationRoutes = [
  defineRoute({
    method: 'get',
    path: '/v1/dpps/:dppId/registration',
    operationId: 'getDppRegistration',
    summary: 'The passport’s registration in the EU DPP registry (Reg. (EU) 2026/1778).',
    description:
      'With the company’s API key or OAuth client token, or a person’s user token / console session (every role).',
    tags: ['dpps'],
    auth: 'apiKeyOrUser',
    params: z.object({ dppId: dppIdParam }),
    responses: {
      200: { description: 'The registration.', schema: registration },
      404: { description: 'dpp_not_found; registration_not_found (the passport has no version yet).' },
    },
    handler: async (ctx: AppContext, { params }) => {
      await requireRight(ctx, 'read', 'see the registration');
      ctx.body = await registrationOf(ctx, await ownServiceUid(ctx, params.dppId));
    },
  }),
  defineRoute({
    method: 'post',
    path: '/v1/dpps/:dppId/registration/retry',
    operationId: 'retryDppRegistration',
    summary:
      'Send a refused (or waiting) registration again, with the passport’s and company’s data as they are now.',
    description:
      'With the company’s API key or OAuth client token, or a person’s user token / console session (owners and ' +
      'developers).',
    tags: ['dpps'],
    auth: 'apiKeyOrUser',
    params: z.object({ dppId: dppIdParam }),
    responses: {
      202: { description: 'Handed to the registry workflow again.', schema: registration },
      404: { description: 'dpp_not_found; registration_not_found.' },
    },
    handler: async (ctx: AppContext, { params }) => {
      await requireRight(ctx, 'managePassports', 'retry a registration');
      const serviceUid = await ownServiceUid(ctx, params.dppId);
      const current = await registrationOf(ctx, serviceUid);
      await requestRegistryRetry(ctx.state.em!, ctx.state.scope!.environment, serviceUid);
      ctx.status = 202;
      ctx.body = current;
    },
  }),
];
