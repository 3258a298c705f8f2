import type { EntityManager } from '@mikro-orm/postgresql';
import { startOrJoin, type WorkflowGateway } from '../../adapters/temporal/start.ts';
import type { TenantScope } from '../../platform/db/tenant-scope.ts';
import { DomainError } from '../../platform/errors.ts';
import type { Logger } from '../../platform/logging/logger.ts';
import {
  ANCHOR_LEVEL_VERSION_WORKFLOW,
  type AnchorLevelVersionWorkflow,
} from '../../processes/anchor-level-version.ts';
import { workflowIds } from '../../processes/workflow-ids.ts';
import { dppIdOf } from '../record/passport-header.ts';

/** Most pending versions of one level whose anchors one write (re)starts. */
const PENDING_PER_START = 50;

/** Starts (or joins) the anchor workflow of one level version (a failed run is started again). */
export async function startVersionAnchor(
  gateway: WorkflowGateway,
  scope: TenantScope,
  version: { levelId: number; gtin: string; number: number },
): Promise<void> {
  await startOrJoin<AnchorLevelVersionWorkflow>(gateway, ANCHOR_LEVEL_VERSION_WORKFLOW, {
    workflowId: workflowIds.anchorLevelVersion(scope.environment, version.levelId, version.number),
    environment: scope.environment,
    args: [{ scope, levelId: version.levelId, number: version.number }],
    summary: `Anchor version ${version.number} of level passport ${version.levelId}`,
    searchAttributes: { environment: scope.environment, company: scope.companyId, gtin: version.gtin },
  });
}

/**
 * Starts (or joins) the anchor workflow of every pending version of the level, after the write that recorded
 * its latest one has committed. Earlier versions still pending (a start that failed, a process that died after
 * its commit) are started again with it. A start that fails is logged, never thrown: the write is done, and the
 * worker's sweep (level-anchor-sweep.ts) starts it later.
 */
export async function startLevelVersionAnchors(
  deps: { em: EntityManager; workflows: WorkflowGateway | undefined; log: Logger },
  scope: TenantScope,
  level: { id: number; gtin: string },
): Promise<void> {
  const { workflows } = deps;
  if (!workflows) {
    deps.log.warn({ levelId: level.id }, 'no workflow service: level versions stay pending');
    return;
  }
  const pending = await deps.em.execute<{ number: number }[]>(
    `select number from dpp_level_versions where level_id = ? and anchor_status = 'pending'
     order by number limit ?`,
    [level.id, PENDING_PER_START],
  );
  for (const { number } of pending) {
    await startVersionAnchor(workflows, scope, { levelId: level.id, gtin: level.gtin, number }).catch(
      (error: unknown) =>
        deps.log.error({ err: error, levelId: level.id, number }, 'level anchor workflow not started'),
    );
  }
}

/** What the anchor of one level version needs, and what it recorded already. */
export interface LevelVersionToAnchor {
  dppId: string;
  sha256: string;
  publicSha256: string;
  transactionHash: string | null;
  blockNumber: number | null;
}

/** The version of the scope's level, or a DomainError (final for the workflow) when there is none. */
export async function levelVersionToAnchor(
  em: EntityManager,
  scope: TenantScope,
  levelId: number,
  number: number,
): Promise<LevelVersionToAnchor> {
  const [row] = await em.execute<
    {
      service_uid: string;
      sha256: string;
      public_sha256: string;
      transaction_hash: string | null;
      block_number: string | number | null;
    }[]
  >(
    `select l.service_uid, v.sha256, v.public_sha256, v.transaction_hash, v.block_number
     from dpp_level_versions v join dpp_levels l on l.id = v.level_id
     where l.id = ? and l.company_id = ? and l.environment = ? and v.number = ?`,
    [levelId, scope.companyId, scope.environment, number],
  );
  if (!row) {
    throw new DomainError(
      'not_found',
      'level_version_not_found',
      `No version ${number} of level ${levelId}.`,
    );
  }
  return {
    dppId: dppIdOf(row.service_uid),
    sha256: row.sha256,
    publicSha256: row.public_sha256,
    transactionHash: row.transaction_hash,
    blockNumber: row.block_number === null ? null : Number(row.block_number),
  };
}

/** The anchor on the version row: `anchored`, with its transaction, block and contract (repeatable). */
export async function recordLevelVersionAnchor(
  em: EntityManager,
  scope: TenantScope,
  version: { levelId: number; number: number },
  anchor: { transactionHash: string; blockNumber: number; contractAddress: string },
): Promise<void> {
  await em.execute(
    `update dpp_level_versions v set anchor_status = 'anchored', transaction_hash = ?, block_number = ?,
       contract_address = ?, anchored_at = coalesce(v.anchored_at, now())
     from dpp_levels l
     where l.id = v.level_id and l.id = ? and l.company_id = ? and l.environment = ? and v.number = ?`,
    [
      anchor.transactionHash,
      anchor.blockNumber,
      anchor.contractAddress,
      version.levelId,
      scope.companyId,
      scope.environment,
      version.number,
    ],
  );
}
