/** What a company's chips' taps can tell it (docs/signals.md has each rule and its default). */
export const SIGNAL_TYPES = [
  'copied_url_reopened',
  'counter_jump',
  'tap_after_end_of_life',
  'tamper_open',
  'verification_burst',
  'chip_enrolled_elsewhere',
] as const;
export type SignalType = (typeof SIGNAL_TYPES)[number];

export const SEVERITIES = ['low', 'medium', 'high'] as const;
export type Severity = (typeof SEVERITIES)[number];

export const SEVERITY_OF: Record<SignalType, Severity> = {
  copied_url_reopened: 'high',
  counter_jump: 'medium',
  tap_after_end_of_life: 'high',
  tamper_open: 'high',
  verification_burst: 'medium',
  chip_enrolled_elsewhere: 'high',
};

export interface SignalSettings {
  /** A used SUN URL opened this many times (its first reading included) raises copied_url_reopened. */
  reopenThreshold: number;
  /** A genuine tap whose counter is more than this above the last accepted one raises counter_jump. */
  counterJumpThreshold: number;
  /** This many genuine taps of one chip within `burstWindowSeconds` raise verification_burst. */
  burstTaps: number;
  burstWindowSeconds: number;
  /** The signal types that send asset.suspicious_activity (all are listed in the API and console). */
  notify: SignalType[];
}

export const DEFAULT_SIGNAL_SETTINGS: SignalSettings = {
  reopenThreshold: 5,
  counterJumpThreshold: 1000,
  burstTaps: 20,
  burstWindowSeconds: 600,
  notify: [...SIGNAL_TYPES],
};

/** The webhook event a raised signal sends (to the types in `notify`). */
export const SUSPICIOUS_ACTIVITY_EVENT = 'asset.suspicious_activity';
