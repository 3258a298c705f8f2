/** One check of a bundle: passed, failed (with why), or pending (not verifiable yet: never counted as passed). */
export interface Check {
  name: string;
  outcome: 'pass' | 'fail' | 'pending';
  detail: string;
}

export const pass = (name: string, detail: string): Check => ({ name, outcome: 'pass', detail });
export const fail = (name: string, detail: string): Check => ({ name, outcome: 'fail', detail });
export const pending = (name: string, detail: string): Check => ({ name, outcome: 'pending', detail });

/** The report a person reads: one line per check, then the verdict. Exit code 0 only when nothing failed. */
export function formatReport(checks: readonly Check[]): { text: string; exitCode: 0 | 1 } {
  const label = { pass: 'PASS   ', fail: 'FAIL   ', pending: 'PENDING' } as const;
  const lines = checks.map((check) => `${label[check.outcome]}  ${check.name}: ${check.detail}`);
  const failed = checks.filter((check) => check.outcome === 'fail').length;
  const waiting = checks.filter((check) => check.outcome === 'pending').length;
  const passed = checks.length - failed - waiting;
  const verdict =
    failed > 0
      ? `NOT VERIFIED: ${failed} check(s) failed, ${passed} passed, ${waiting} pending`
      : waiting > 0
        ? `VERIFIED except ${waiting} pending part(s) (not anchored yet: unverifiable, not passed); ${passed} passed`
        : `VERIFIED: all ${passed} checks passed`;
  return { text: [...lines, '', verdict].join('\n'), exitCode: failed > 0 ? 1 : 0 };
}
