import type { EntityManager } from '@mikro-orm/postgresql';
import type { LevelVersion } from '../../passport/levels/level-versions.ts';
import { recordLevelVersion } from '../../passport/levels/level-versions.ts';
import type { LevelPassport } from '../../passport/levels/levels.ts';
import { lockOwnLevel } from '../../passport/levels/write-level.ts';
import { nextDppStatus, type StatusAction } from '../../passport/record/dpp-status-rule.ts';
import type { DppStatus } from '../../passport/record/passport-header.ts';
import type { Environment } from '../../platform/config/config.ts';
import { DomainError } from '../../platform/errors.ts';
import { archiveRetention, type RetentionRule } from './retention.ts';

export interface LevelStatusChange {
  from: DppStatus;
  to: DppStatus;
  version: LevelVersion;
  retention?: RetentionRule & { retainUntil: Date | null };
}

/**
 * Changes the status of the company's model or batch passport with the rule items follow (dpp-status-rule.ts; a
 * level has no credential to revoke) and, archived, the retention its product groups give (retention.ts). One
 * transaction: the level locked, its status (reason, time, retainUntil) set, a new version recorded (its header
 * shows the status). A level has no token, so there is no supply-chain event to anchor: the version is the record.
 */
export async function changeLevelStatus(
  em: EntityManager,
  scope: { companyId: string; environment: Environment },
  target: LevelPassport,
  request: { action: StatusAction; reason?: string | undefined },
  publicBaseUrl: string,
): Promise<LevelStatusChange> {
  return em.transactional(async (tx) => {
    const level = await lockOwnLevel(tx, scope, target);
    const from = level.dppStatus;
    const to = nextDppStatus({ dppStatus: from, revoked: false }, request.action);
    if (to instanceof DomainError) throw to;
    const now = new Date();
    let retention: LevelStatusChange['retention'];
    if (to === 'archived') {
      const groups = await tx.execute<{ spec_group: string }[]>(
        'select spec_group from dpp_level_content where level_id = ?',
        [level.id],
      );
      retention = archiveRetention(
        groups.map((row) => row.spec_group),
        now,
      );
    }
    await tx.execute(
      `update dpp_levels set dpp_status = ?, dpp_status_reason = ?, dpp_status_changed_at = ?, retain_until = ?,
       updated_at = ? where id = ?`,
      [to, request.reason ?? null, now, retention?.retainUntil ?? null, now, level.id],
    );
    const changed: LevelPassport = { ...level, dppStatus: to, retainUntil: retention?.retainUntil ?? null };
    const version = await recordLevelVersion(tx, changed, publicBaseUrl);
    return { from, to, version, ...(retention ? { retention } : {}) };
  });
}
