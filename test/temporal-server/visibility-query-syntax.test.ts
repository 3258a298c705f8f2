import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compileVisibilityQuery } from '../../src/temporal-server/visibility/query.ts';
import { A, B, C, ids, rec, rejects, sorted, TYPES } from './visibility-query-fixtures.ts';

describe('precedence and grouping', () => {
  it('AND binds tighter than OR', () => {
    // = order-1 OR (order-2 AND Failed)
    assert.deepEqual(ids("WorkflowId = 'order-1' OR WorkflowId = 'order-2' AND ExecutionStatus = 'Failed'"), [
      'order-1',
    ]);
    // = (Failed AND payment-1) OR order-2
    assert.deepEqual(
      ids("ExecutionStatus = 'Failed' AND WorkflowId = 'payment-1' OR WorkflowId = 'order-2'"),
      ['order-2', 'payment-1'],
    );
  });

  it('parentheses override precedence', () => {
    assert.deepEqual(
      ids("(WorkflowId = 'order-1' OR WorkflowId = 'order-2') AND ExecutionStatus = 'Completed'"),
      ['order-2'],
    );
    assert.deepEqual(ids("((WorkflowId = 'order-1'))"), ['order-1']);
    assert.deepEqual(
      ids("TaskQueue = 'main' AND (CustomIntField > 15 OR (CloseTime IS NULL AND CustomBoolField = true))"),
      ['order-1', 'order-2'],
    );
  });

  it('keywords are case-insensitive', () => {
    assert.deepEqual(ids("WorkflowId = 'order-1' oR WorkflowId = 'payment-1' aNd TaskQueue = 'payments'"), [
      'order-1',
      'payment-1',
    ]);
  });

  it('rejects unbalanced parentheses and dangling operators', () => {
    rejects("(WorkflowId = 'order-1'", /expected '\)'/);
    rejects("WorkflowId = 'order-1')", /unexpected '\)'/);
    rejects("WorkflowId = 'order-1' AND", /unexpected end of query; expected a search attribute name/);
    rejects("OR WorkflowId = 'a'", /expected a search attribute name \(backquote 'OR'/);
    rejects('()', /unexpected '\)'/);
  });

  it('rejects unary NOT', () => {
    rejects("NOT WorkflowId = 'a'", /unary NOT .* not supported/);
  });
});

describe('quoting and literals', () => {
  it('supports single and double quoted strings', () => {
    assert.deepEqual(ids('WorkflowId = "order-1"'), ['order-1']);
    assert.deepEqual(ids("WorkflowId = 'order-1'"), ['order-1']);
  });

  it('handles escaped quotes and backslashes', () => {
    const r = rec({ id: `it's "x"\\y` });
    assert.deepEqual(ids(`WorkflowId = 'it''s "x"\\\\y'`, [r]), [r.workflowId]);
    assert.deepEqual(ids(`WorkflowId = 'it\\'s "x"\\\\y'`, [r]), [r.workflowId]);
    assert.deepEqual(ids(`WorkflowId = "it's ""x""\\\\y"`, [r]), [r.workflowId]);
    assert.deepEqual(ids(`WorkflowId = "it's \\"x\\"\\\\y"`, [r]), [r.workflowId]);
    const nl = rec({ id: 'a\nb' });
    assert.deepEqual(ids("WorkflowId = 'a\\nb'", [nl]), ['a\nb']);
  });

  it('supports backquoted attribute names, including reserved words and spaces', () => {
    assert.deepEqual(ids("`WorkflowId` = 'order-1'"), ['order-1']);
    const r = rec({ id: 'q', searchAttributes: { 'Order Id': 'o-1', Desc: 'd' } });
    assert.deepEqual(ids("`Order Id` = 'o-1' AND `Desc` = 'd'", [r]), ['q']);
    rejects("Desc = 'd'", /backquote 'Desc'/);
  });

  it('rejects unquoted values and malformed literals', () => {
    rejects('ExecutionStatus = Running', /found name 'Running'; string values must be quoted/);
    rejects("WorkflowId = 'order-1", /unterminated string literal starting at position 13/);
    rejects('`WorkflowId = 1', /unterminated backquoted name/);
    rejects("`` = 'a'", /empty attribute name/);
    rejects('CustomIntField = 12abc', /invalid number '12a'/);
    rejects("WorkflowId == 'a'", /unexpected '='/);
    rejects("WorkflowId = 'a' ; DROP", /unexpected character ';'/);
    rejects("WorkflowId 'a'", /expected an operator/);
  });
});

describe('type checking', () => {
  it('rejects values of the wrong type', () => {
    rejects(
      'WorkflowId = 1',
      /invalid value 1 .* Keyword search attribute 'WorkflowId': expected a quoted string/,
    );
    rejects("CustomIntField = '10'", /Int search attribute 'CustomIntField': expected an integer/);
    rejects('CustomIntField = 1.5', /expected an integer/);
    rejects('CustomDoubleField = true', /Double .* expected a number/);
    rejects("CustomBoolField = 'true'", /Bool .* expected true or false/);
    rejects("CustomIntField IN (1, 'x')", /invalid value 'x'/);
    rejects("CustomIntField BETWEEN 1 AND 'x'", /invalid value 'x'/);
    rejects('CustomKeywordField STARTS_WITH 1', /expected a quoted string/);
  });

  it('rejects unknown attributes with a hint for case mismatches', () => {
    rejects("Foo = 'a'", /unknown search attribute 'Foo' at position 0/);
    rejects("workflowId = 'a'", /case sensitive; did you mean 'WorkflowId'/);
    rejects('CloseTime IS NULL ORDER BY Nope', /unknown search attribute 'Nope'/);
  });

  it('accepts short type names and rejects unsupported ones', () => {
    const q = compileVisibilityQuery('X = 1', new Map([['X', 'Int']]));
    assert.equal(q.matches(rec({ id: 'x', searchAttributes: { X: 1 } })), true);
    assert.throws(
      () => compileVisibilityQuery("X = 'a'", new Map([['X', 'INDEXED_VALUE_TYPE_UNSPECIFIED']])),
      /unsupported type 'INDEXED_VALUE_TYPE_UNSPECIFIED'/,
    );
  });

  it('system attributes take precedence over custom types with the same name', () => {
    const q = compileVisibilityQuery(
      "WorkflowId = 'order-1'",
      new Map([['WorkflowId', 'INDEXED_VALUE_TYPE_INT']]),
    );
    assert.equal(q.matches(A), true);
  });
});

describe('ORDER BY', () => {
  const D = rec({ id: 'd', startTime: new Date('2024-01-02T10:00:00Z'), runId: 'run-a' });

  it('defaults to StartTime DESC then RunId ASC', () => {
    assert.deepEqual(sorted(''), ['payment-1', 'order-2', 'order-1']);
    assert.deepEqual(sorted("WorkflowId != 'x'", [A, B, C, D]), ['payment-1', 'd', 'order-2', 'order-1']);
  });

  it('sorts by a single key in either direction', () => {
    assert.deepEqual(sorted('ORDER BY StartTime'), ['order-1', 'order-2', 'payment-1']);
    assert.deepEqual(sorted('ORDER BY StartTime ASC'), ['order-1', 'order-2', 'payment-1']);
    assert.deepEqual(sorted('order by StartTime desc'), ['payment-1', 'order-2', 'order-1']);
    assert.deepEqual(sorted('ORDER BY CustomIntField DESC'), ['payment-1', 'order-2', 'order-1']);
    assert.deepEqual(sorted('ORDER BY `CustomKeywordField`'), ['order-1', 'order-2', 'payment-1']);
  });

  it('puts missing values last for ASC and first for DESC', () => {
    assert.deepEqual(sorted('ORDER BY CloseTime ASC'), ['order-2', 'payment-1', 'order-1']);
    assert.deepEqual(sorted('ORDER BY CloseTime DESC'), ['order-1', 'payment-1', 'order-2']);
  });

  it('supports multiple keys', () => {
    const records = [A, B, C, D];
    assert.deepEqual(sorted('ORDER BY TaskQueue DESC, StartTime ASC', records), [
      'payment-1',
      'order-1',
      'd',
      'order-2',
    ]);
    assert.deepEqual(sorted('ORDER BY TaskQueue, StartTime DESC, WorkflowId', records), [
      'd',
      'order-2',
      'order-1',
      'payment-1',
    ]);
  });

  it('combines with a filter', () => {
    const q = compileVisibilityQuery("TaskQueue = 'main' ORDER BY StartTime ASC", TYPES);
    assert.equal(q.matches(C), false);
    assert.deepEqual(
      [B, A].sort((a, b) => q.compare(a, b)).map((r) => r.workflowId),
      ['order-1', 'order-2'],
    );
    assert.deepEqual(ids("(TaskQueue = 'main') ORDER BY StartTime"), ['order-1', 'order-2']);
  });

  it('is a consistent comparator', () => {
    const q = compileVisibilityQuery('ORDER BY ExecutionStatus', TYPES);
    assert.equal(q.compare(A, A), 0);
    assert.equal(Math.sign(q.compare(A, B)), -Math.sign(q.compare(B, A)));
  });

  it('rejects Text and KeywordList keys and malformed clauses', () => {
    rejects('ORDER BY CustomTextField', /Text search attribute 'CustomTextField' cannot be used in ORDER BY/);
    rejects('ORDER BY CustomKeywordListField', /KeywordList .* cannot be used in ORDER BY/);
    rejects('ORDER StartTime', /expected BY/);
    rejects('ORDER BY', /expected a search attribute name/);
    rejects('ORDER BY StartTime,', /expected a search attribute name/);
    rejects("ORDER BY StartTime WorkflowId = 'a'", /expected ',', ASC, DESC or end of query/);
    rejects("ORDER BY StartTime AND WorkflowId = 'a'", /expected ',', ASC, DESC or end of query/);
    rejects("WorkflowId = 'a' ORDER BY StartTime OR WorkflowId = 'b'", /expected ',', ASC, DESC/);
    rejects("WorkflowId = 'a' LIMIT 5", /unexpected 'LIMIT'.*expected AND, OR, ORDER BY or end of query/);
  });
});
