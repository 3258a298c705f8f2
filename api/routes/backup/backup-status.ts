import { z } from 'zod';
import { passportBackupStatus } from '../../../src/lifecycle/backup/backup-status.ts';
import { findLevelById } from '../../../src/passport/levels/levels.ts';
import { DomainError } from '../../../src/platform/errors.ts';
import { requireRight } from '../../middleware/require-right.ts';
import { defineRoute } from '../../route.ts';
import type { RouteDeps } from '../deps.ts';
import { ownPassport } from '../dpp-api/dpp-content.ts';

const versionStatus = z.object({
  number: z.number().int(),
  sha256: z.string(),
  status: z.enum(['pending', 'acknowledged', 'refused']),
  attempts: z.number().int(),
  acknowledgedSha256: z.string().nullable(),
  acknowledgedAt: z.string().nullable(),
  lastError: z.string().nullable(),
});

const statusSchema = z.object({
  provider: z.enum(['configured', 'not_configured']),
  backupLink: z.string().nullable(),
  state: z.enum(['acknowledged', 'pending', 'attention', 'not_configured']),
  latestAcknowledgedVersion: z.number().int().nullable(),
  versions: z.array(versionStatus),
});

/** GET /v1/dpps/{dppId}/backup: where each version of the company's passport stands at the backup provider. */
export function backupStatusRoute(deps: RouteDeps) {
  return defineRoute({
    method: 'get',
    path: '/v1/dpps/:dppId/backup',
    operationId: 'readDppBackupStatus',
    summary: 'A passport’s backup copy: each version pushed, acknowledged by hash, or failing and why.',
    description:
      'Every published version (item, batch or model passport) is pushed to the configured backup provider and ' +
      'acknowledged by the hash the backup computed (docs/backup.md). state: acknowledged (every version), ' +
      'pending (some still being pushed; failures retry with backoff), attention (a version refused, or pending ' +
      'longer than BACKUP_STUCK_AFTER_SECONDS: an operator looks; lastError says why), not_configured. ' +
      'backupLink is the address the registry carries (Art. 8(7)(e) of Reg. (EU) 2026/1778). With the company’s ' +
      'API key or OAuth client token, or a person’s user token / console session (every role).',
    tags: ['dpps'],
    auth: 'apiKeyOrUser',
    params: z.object({
      dppId: z.string().max(200).describe('The passport’s dppId (urn:uuid:… or the UUID).'),
    }),
    responses: {
      200: { description: 'The passport’s backup status.', schema: statusSchema },
      404: { description: 'dpp_not_found: no passport of the caller’s company has this id.' },
    },
    handler: async (ctx, { params }) => {
      await requireRight(ctx, 'read', 'see the backup status');
      const scope = ctx.state.scope!;
      const em = ctx.state.em!;
      const level = await findLevelById(em, scope.environment, params.dppId);
      if (level && level.companyId !== scope.companyId) {
        throw new DomainError('not_found', 'dpp_not_found', `No passport ${params.dppId}.`);
      }
      const serviceUid = level ? level.serviceUid : (await ownPassport(ctx, params.dppId)).serviceUid;
      const status = await passportBackupStatus(
        em,
        { companyId: scope.companyId, environment: scope.environment, serviceUid },
        deps.config.backup.provider,
      );
      ctx.body = status;
    },
  });
}
