import assert from 'node:assert/strict';
import {
  compileVisibilityQuery,
  VisibilityQueryError,
  type VisibilityRecord,
} from '../../src/temporal-server/visibility/query.ts';

/** Shared fixtures for the visibility List Filter tests. */

export const TYPES: ReadonlyMap<string, string> = new Map([
  ['CustomKeywordField', 'INDEXED_VALUE_TYPE_KEYWORD'],
  ['CustomTextField', 'INDEXED_VALUE_TYPE_TEXT'],
  ['CustomIntField', 'INDEXED_VALUE_TYPE_INT'],
  ['CustomDoubleField', 'INDEXED_VALUE_TYPE_DOUBLE'],
  ['CustomBoolField', 'INDEXED_VALUE_TYPE_BOOL'],
  ['CustomDatetimeField', 'INDEXED_VALUE_TYPE_DATETIME'],
  ['CustomKeywordListField', 'INDEXED_VALUE_TYPE_KEYWORD_LIST'],
  ['Order Id', 'INDEXED_VALUE_TYPE_KEYWORD'],
  ['Desc', 'INDEXED_VALUE_TYPE_KEYWORD'],
]);

export function rec(overrides: Partial<VisibilityRecord> & { id: string }): VisibilityRecord {
  const { id, ...rest } = overrides;
  return {
    workflowId: id,
    runId: `run-${id}`,
    workflowType: 'OrderWorkflow',
    status: 'Running',
    startTime: new Date('2024-01-01T00:00:00Z'),
    taskQueue: 'main',
    searchAttributes: {},
    ...rest,
  };
}

export const A = rec({
  id: 'order-1',
  startTime: new Date('2024-01-01T10:00:00Z'),
  searchAttributes: {
    CustomKeywordField: 'alpha',
    CustomTextField: 'my-business-id-foobar',
    CustomIntField: 10,
    CustomDoubleField: 1.5,
    CustomBoolField: true,
    CustomDatetimeField: new Date('2024-06-01T12:00:00.250Z'),
    CustomKeywordListField: ['red', 'green'],
  },
});
export const B = rec({
  id: 'order-2',
  status: 'Completed',
  startTime: new Date('2024-01-02T10:00:00Z'),
  closeTime: new Date('2024-01-02T11:00:00Z'),
  executionTime: new Date('2024-01-02T10:00:00Z'),
  searchAttributes: {
    CustomKeywordField: 'beta',
    CustomTextField: 'Quick brown FOX',
    CustomIntField: 20,
    CustomDoubleField: -2.25,
    CustomBoolField: false,
    CustomKeywordListField: ['blue'],
  },
});
export const C = rec({
  id: 'payment-1',
  workflowType: 'PaymentWorkflow',
  status: 'Failed',
  taskQueue: 'payments',
  startTime: new Date('2024-01-03T10:00:00Z'),
  closeTime: new Date('2024-01-03T12:00:00Z'),
  searchAttributes: { CustomKeywordListField: [] },
});
export const ALL = [A, B, C];

/** Workflow ids matched by `query`, in input order. */
export function ids(query: string, records: VisibilityRecord[] = ALL): string[] {
  const q = compileVisibilityQuery(query, TYPES);
  return records.filter((r) => q.matches(r)).map((r) => r.workflowId);
}

/** Workflow ids in the order produced by the query's comparator. */
export function sorted(query: string, records: VisibilityRecord[] = ALL): string[] {
  const q = compileVisibilityQuery(query, TYPES);
  return [...records].sort((a, b) => q.compare(a, b)).map((r) => r.workflowId);
}

export function rejects(query: string, pattern: RegExp): void {
  assert.throws(
    () => compileVisibilityQuery(query, TYPES),
    (err: unknown) => {
      assert.ok(err instanceof VisibilityQueryError, `expected VisibilityQueryError, got ${String(err)}`);
      assert.match(err.message, pattern);
      return true;
    },
  );
}
