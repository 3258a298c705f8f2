import type { BackupAck, BackupPush } from './protocol.ts';

/** What one push came to: acknowledged (with the backup's hashes), refused for good, or failed for now. */
export type PushOutcome =
  | { kind: 'acknowledged'; ack: BackupAck }
  | { kind: 'refused'; status: number; reason: string }
  | { kind: 'failed'; reason: string };

export interface BackupProviderSettings {
  url: string;
  token: string;
  timeoutMs?: number;
}

/** A refusal about this version's content (a hash mismatch, another version under its number): retrying cannot help. */
const REFUSALS = new Set([409, 422]);

/** PUT of one version to the backup provider (docs/backup.md "Protocol"); never throws. */
export async function pushToBackup(settings: BackupProviderSettings, push: BackupPush): Promise<PushOutcome> {
  let response: Response;
  try {
    response = await fetch(`${settings.url}/backup/v1/copies`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${settings.token}`, 'content-type': 'application/json' },
      body: JSON.stringify(push),
      signal: AbortSignal.timeout(settings.timeoutMs ?? 20_000),
      redirect: 'error',
    });
  } catch (error) {
    return { kind: 'failed', reason: `backup provider unreachable: ${(error as Error).message}` };
  }
  const text = await response.text().catch(() => '');
  if (response.status === 200 || response.status === 201) {
    try {
      return { kind: 'acknowledged', ack: JSON.parse(text) as BackupAck };
    } catch {
      return { kind: 'failed', reason: 'backup provider answered an acknowledgement that is not JSON' };
    }
  }
  const reason = `backup provider answered ${response.status}: ${problemDetail(text)}`;
  return REFUSALS.has(response.status)
    ? { kind: 'refused', status: response.status, reason }
    : { kind: 'failed', reason };
}

function problemDetail(text: string): string {
  try {
    const problem = JSON.parse(text) as { code?: string; detail?: string };
    return [problem.code, problem.detail].filter(Boolean).join(' — ') || text.slice(0, 200);
  } catch {
    return text.slice(0, 200);
  }
}
