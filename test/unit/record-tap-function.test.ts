import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, test } from 'vitest';
import {
  DEFAULT_SIGNAL_SETTINGS as D,
  SEVERITY_OF,
  SUSPICIOUS_ACTIVITY_EVENT,
} from '../../src/chips/signals/signal-types.ts';

/**
 * The tap's statement lives in the record_tap function with the signal settings' defaults written in: a default
 * or a severity changed in signal-types.ts without a migration that replaces the function would make the API
 * show one threshold and the taps apply another.
 */
describe('record_tap function', () => {
  // The function as the newest migration that (re)creates it defines it.
  const migrations = new URL('../../src/platform/db/migrations/', import.meta.url);
  const source = readdirSync(migrations)
    .filter((name) => name.startsWith('Migration'))
    .sort()
    .map((name) => readFileSync(new URL(name, migrations), 'utf8'))
    .filter((text) => text.includes('create or replace function record_tap('))
    .at(-1)!;
  test('carries the defaults, severities and event type of signal-types.ts', () => {
    for (const written of [
      `coalesce(s.reopen_threshold, ${D.reopenThreshold})`,
      `coalesce(s.counter_jump_threshold, ${D.counterJumpThreshold})`,
      `coalesce(s.burst_taps, ${D.burstTaps})`,
      `coalesce(s.burst_window_seconds, ${D.burstWindowSeconds})`,
      `coalesce(s.notify, '${JSON.stringify(D.notify)}'::jsonb)`,
      `'${SUSPICIOUS_ACTIVITY_EVENT}'`,
      ...(
        [
          'copied_url_reopened',
          'counter_jump',
          'verification_burst',
          'tap_after_end_of_life',
          'tamper_open',
        ] as const
      ).map((type) => `'${type}', '${SEVERITY_OF[type]}'`),
    ]) {
      assert.ok(source.includes(written), `the function is written with ${written}`);
    }
  });
});
