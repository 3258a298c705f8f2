import { z } from 'zod';

/** Environment variables of the backup copy (docs/backup.md): where ours go, and who we are there. */
export const backupEnvShape = {
  /** The backup provider's base URL (its API, where PUT /backup/v1/… is); unset: no backup pushes. */
  BACKUP_PROVIDER_URL: z.url().optional(),
  /** Our credential at the backup provider (what its operator printed with `backup-peer:add`). */
  BACKUP_PROVIDER_TOKEN: z.string().min(16).optional(),
  /** Our provider id at the backup provider (the peer id it registered us under). */
  BACKUP_PROVIDER_PEER_ID: z
    .string()
    .regex(/^[a-z0-9][a-z0-9-]{0,62}$/, 'lower-case letters, digits and dashes (at most 63)')
    .optional(),
  /** The backup provider's public base, for the registry's backup link (default: BACKUP_PROVIDER_URL). */
  BACKUP_PUBLIC_BASE_URL: z.url().optional(),
  /** A version not acknowledged after this many seconds needs an operator's attention (default 600). */
  BACKUP_STUCK_AFTER_SECONDS: z.coerce.number().int().min(10).default(600),
};

export interface BackupConfig {
  /** Unset when no backup provider is configured. */
  provider:
    | { url: string; token: string; peerId: string; publicBaseUrl: string; stuckAfterMs: number }
    | undefined;
}

type BackupEnv = {
  BACKUP_PROVIDER_URL?: string | undefined;
  BACKUP_PROVIDER_TOKEN?: string | undefined;
  BACKUP_PROVIDER_PEER_ID?: string | undefined;
  BACKUP_PUBLIC_BASE_URL?: string | undefined;
  BACKUP_STUCK_AFTER_SECONDS: number;
};

/** The three provider settings go together: all set, or none (checked by loadConfig). */
export function backupConfig(e: BackupEnv): BackupConfig {
  if (!e.BACKUP_PROVIDER_URL || !e.BACKUP_PROVIDER_TOKEN || !e.BACKUP_PROVIDER_PEER_ID)
    return { provider: undefined };
  const url = e.BACKUP_PROVIDER_URL.replace(/\/+$/, '');
  return {
    provider: {
      url,
      token: e.BACKUP_PROVIDER_TOKEN,
      peerId: e.BACKUP_PROVIDER_PEER_ID,
      publicBaseUrl: (e.BACKUP_PUBLIC_BASE_URL ?? url).replace(/\/+$/, ''),
      stuckAfterMs: e.BACKUP_STUCK_AFTER_SECONDS * 1000,
    },
  };
}

/** The settings that must come together, for loadConfig's error when only some are set. */
export function backupSettingsProblem(e: BackupEnv): { variable: string; message: string } | undefined {
  const set = [e.BACKUP_PROVIDER_URL, e.BACKUP_PROVIDER_TOKEN, e.BACKUP_PROVIDER_PEER_ID].filter(Boolean);
  if (set.length === 0 || set.length === 3) return undefined;
  return {
    variable: 'BACKUP_PROVIDER_URL',
    message: 'BACKUP_PROVIDER_URL, BACKUP_PROVIDER_TOKEN and BACKUP_PROVIDER_PEER_ID must be set together',
  };
}
