import type { PassportRecord } from './lookup.ts';

/** Statuses the public representations show. */
export type PublicStatus = 'ACTIVE' | 'RECYCLED' | 'REVOKED' | 'SUSPENDED' | 'ARCHIVED' | (string & {});

/**
 * The passport's status as the public sees it: RECYCLED once recycled (recycling also revokes its credential),
 * REVOKED when its company revoked it for another reason, ARCHIVED or SUSPENDED when its company set that
 * status (EN 18222 status change), else the passport's own status (ACTIVE).
 */
export function publicStatus(
  passport: Pick<PassportRecord, 'status' | 'revokedAt'> & { dppStatus?: string | null | undefined },
): PublicStatus {
  if (passport.status === 'RECYCLED') return 'RECYCLED';
  if (passport.revokedAt) return 'REVOKED';
  if (passport.dppStatus === 'archived') return 'ARCHIVED';
  if (passport.dppStatus === 'suspended') return 'SUSPENDED';
  return passport.status;
}

/** The chip's status: AUTHENTIC once a genuine tap has been verified, UNVERIFIED before (a toolbox-bound chip). */
export function hardwareStatus(
  passport: Pick<PassportRecord, 'verificationCount'>,
): 'AUTHENTIC' | 'UNVERIFIED' {
  return passport.verificationCount > 0 ? 'AUTHENTIC' : 'UNVERIFIED';
}
