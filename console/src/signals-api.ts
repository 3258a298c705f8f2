import { call, type Environment } from './api.ts';

/** Signals: what the company's chips' taps tell it (GET /v1/dpp/signals; docs/signals.md). */

export type SignalType =
  | 'copied_url_reopened'
  | 'counter_jump'
  | 'tap_after_end_of_life'
  | 'tamper_open'
  | 'verification_burst'
  | 'chip_enrolled_elsewhere';

export interface Signal {
  id: string;
  type: SignalType;
  severity: 'low' | 'medium' | 'high';
  chipUid: string;
  tokenId: string | null;
  evidence: Record<string, unknown>;
  raisedAt: string;
  updatedAt: string;
  resolved: boolean;
  resolvedAt: string | null;
  resolvedBy: string | null;
}

export interface SignalSettings {
  reopenThreshold: number;
  counterJumpThreshold: number;
  burstTaps: number;
  burstWindowSeconds: number;
  notify: SignalType[];
  updatedAt: string | null;
}

/** What each type means, in the words the page shows. */
export const SIGNAL_LABELS: Record<SignalType, string> = {
  copied_url_reopened: 'Copied tag link opened again',
  counter_jump: 'Counter jumped far ahead',
  tap_after_end_of_life: 'Tapped after its end of life',
  tamper_open: 'Tamper loop open',
  verification_burst: 'Burst of verifications',
  chip_enrolled_elsewhere: 'Chip UID enrolled by another account',
};

export const signals = {
  list: (env: Environment, status: 'open' | 'resolved' | 'all', tokenId?: string) => {
    const search = new URLSearchParams({ status, limit: '100' });
    if (tokenId) search.set('tokenId', tokenId);
    return call<{ signals: Signal[]; nextCursor: string | null }>(env, 'GET', `/v1/dpp/signals?${search}`);
  },
  resolve: (env: Environment, id: string) =>
    call<{ signal: Signal }>(env, 'POST', `/v1/dpp/signals/${encodeURIComponent(id)}/resolve`),
  settings: (env: Environment) => call<SignalSettings>(env, 'GET', '/v1/dpp/signal-settings'),
  saveSettings: (env: Environment, change: Partial<Omit<SignalSettings, 'updatedAt'>>) =>
    call<SignalSettings>(env, 'PUT', '/v1/dpp/signal-settings', change),
};

/** The evidence's fields in words (unknown ones show as sent). */
export const EVIDENCE_LABELS: Record<string, string> = {
  openings: 'Times the link was opened',
  firstOpenedAt: 'First opened',
  lastOpenedAt: 'Last opened',
  spanSeconds: 'Seconds from first to last opening',
  distinctClients: 'Different devices',
  counter: 'Tap counter',
  lastAcceptedCounter: 'Chip’s latest genuine counter',
  previousCounter: 'Previous genuine counter',
  jump: 'Jump',
  previousVerifiedAt: 'Previous genuine tap',
  tappedAt: 'Tapped',
  taps: 'Genuine taps in the window',
  since: 'Window started',
  windowSeconds: 'Window (seconds)',
  lastTapAt: 'Last tap',
  passportStatus: 'Passport status',
  permanent: 'Loop ever opened',
  current: 'Loop now',
  tampered: 'Tampered',
  otherAccount: 'Other account (anonymised)',
  attemptedAt: 'First attempt',
  lastAttemptAt: 'Last attempt',
  seen: 'Times observed',
};
