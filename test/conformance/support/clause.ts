import { describe, type TestContext, test } from 'vitest';

declare module 'vitest' {
  interface TaskMeta {
    /** What docs/conformance.md says of a clause (test/conformance/matrix-reporter.ts reads it). */
    conformance?: ClauseMeta;
  }
}

export interface ClauseMeta {
  /** The third-party validator that judges the clause, e.g. "standardwebhooks 1.1.1 (npm)". */
  checkedWith: string;
  /** Where the clause is written (a URL, or a page of docs/ where the standard is not public), shown in the matrix. */
  reference?: string;
  /** For a clause deliberately not checked: why (shown instead of a result). */
  leftOut?: string;
}

export interface Standard {
  /** The standard as the matrix names it, with its version: "Standard Webhooks 1.0.0". */
  name: string;
  checkedWith: string;
  reference?: string;
}

export interface ClauseOptions {
  timeoutMs?: number;
  checkedWith?: string;
}

type Check = (context: TestContext) => Promise<void> | void;

export interface Clauses {
  /**
   * One checked clause: a test named "<clause id>: <title>"; `options` a timeout in ms, or one with the validator
   * of this clause where it is not the standard's.
   */
  (id: string, title: string, check: Check, options?: ClauseOptions | number): void;
  /** A clause of the standard that is not checked, and why: listed in the matrix as left out. */
  leftOut(id: string, title: string, why: string): void;
}

/**
 * One standard's clauses: `describe(<standard>)` holding one test per clause, "<Standard> › <id>: <title>",
 * each carrying the validator that judges it. The matrix (docs/conformance.md) is built from these names.
 */
export function standard(spec: Standard, body: (clause: Clauses) => void): void {
  const meta = (extra: Partial<ClauseMeta> = {}) => ({
    conformance: {
      checkedWith: spec.checkedWith,
      ...(spec.reference ? { reference: spec.reference } : {}),
      ...extra,
    },
  });
  const clause = ((id: string, title: string, check: Check, options?: ClauseOptions | number) => {
    const { timeoutMs, checkedWith } = typeof options === 'number' ? { timeoutMs: options } : (options ?? {});
    test(
      `${id}: ${title}`,
      { meta: meta(checkedWith ? { checkedWith } : {}), ...(timeoutMs ? { timeout: timeoutMs } : {}) },
      check,
    );
  }) as Clauses;
  clause.leftOut = (id, title, why) =>
    test.skip(`${id}: ${title}`, { meta: meta({ leftOut: why }) }, () => {});
  describe(spec.name, () => body(clause));
}
