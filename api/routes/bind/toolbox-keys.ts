import { z } from 'zod';
import {
  listToolboxKeys,
  registerToolboxKey,
  revokeToolboxKey,
} from '../../../src/lifecycle/bind/toolbox-keys.ts';
import type { ToolboxKey } from '../../../src/platform/db/entities/index.ts';
import type { AppContext } from '../../context.ts';
import { defineRoute } from '../../route.ts';

const toolboxKeyJson = z.object({
  id: z.string(),
  name: z.string(),
  algorithm: z.enum(['Ed25519', 'P-256']),
  publicKey: z.string().describe('SPKI PEM.'),
  createdAt: z.iso.datetime(),
});

function toJson(key: ToolboxKey) {
  return {
    id: key.id,
    name: key.name,
    algorithm: key.algorithm,
    publicKey: key.publicKeyPem,
    createdAt: key.createdAt.toISOString(),
  };
}

export const toolboxKeyRoutes = [
  defineRoute({
    method: 'post',
    path: '/v1/factory/toolbox-keys',
    operationId: 'registerToolboxKey',
    summary: 'Register a factory toolbox public key (Ed25519 or P-256, PEM or JWK) for signed binds.',
    description:
      'POST /v1/factory/bind shape B must carry a signature (hex) by one of the active keys over the UTF-8 ' +
      'string "<internalId>:<chipUid>" (chip UID in canonical form: 14 uppercase hex digits). Ed25519 ' +
      'signatures are 64 bytes; P-256 (ECDSA with SHA-256) as raw r||s (64 bytes) or DER.',
    tags: ['factory'],
    auth: 'apiKey',
    body: z
      .object({
        name: z.string().trim().min(1).max(200),
        publicKey: z.union([z.string().min(1).max(4096), z.record(z.string(), z.unknown())]),
      })
      .strict(),
    responses: {
      201: {
        description: 'Registered.',
        schema: z.object({ success: z.literal(true), data: toolboxKeyJson }),
      },
    },
    handler: async (ctx: AppContext, { body }) => {
      const key = await registerToolboxKey(ctx.state.em!, ctx.state.scope!, body);
      ctx.status = 201;
      ctx.body = { success: true, data: toJson(key) };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/v1/factory/toolbox-keys',
    operationId: 'listToolboxKeys',
    summary: 'The active toolbox keys of the environment.',
    tags: ['factory'],
    auth: 'apiKey',
    responses: {
      200: {
        description: 'Active keys.',
        schema: z.object({ success: z.literal(true), data: z.array(toolboxKeyJson) }),
      },
    },
    handler: async (ctx: AppContext) => {
      ctx.body = { success: true, data: (await listToolboxKeys(ctx.state.em!)).map(toJson) };
    },
  }),
  defineRoute({
    method: 'delete',
    path: '/v1/factory/toolbox-keys/:id',
    operationId: 'revokeToolboxKey',
    summary: 'Revoke a toolbox key (idempotent): its signatures no longer bind.',
    tags: ['factory'],
    auth: 'apiKey',
    params: z.object({ id: z.uuid({ message: 'toolbox key ids are UUIDs' }) }),
    responses: { 200: { description: 'Revoked.', schema: z.object({ success: z.literal(true) }) } },
    handler: async (ctx: AppContext, { params }) => {
      await revokeToolboxKey(ctx.state.em!, params.id);
      ctx.body = { success: true };
    },
  }),
];
