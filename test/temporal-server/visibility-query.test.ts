import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ids, rec, rejects } from './visibility-query-fixtures.ts';

// Operator semantics. Syntax, quoting, type errors and ORDER BY are in visibility-query-syntax.test.ts.

describe('empty query', () => {
  it('matches everything', () => {
    assert.deepEqual(ids(''), ['order-1', 'order-2', 'payment-1']);
    assert.deepEqual(ids('   \n\t '), ['order-1', 'order-2', 'payment-1']);
  });
});

describe('comparison operators', () => {
  it('= and != on keyword system attributes', () => {
    assert.deepEqual(ids("WorkflowId = 'order-1'"), ['order-1']);
    assert.deepEqual(ids("WorkflowId != 'order-1'"), ['order-2', 'payment-1']);
    assert.deepEqual(ids("WorkflowId <> 'order-1'"), ['order-2', 'payment-1']);
    assert.deepEqual(ids("RunId = 'run-order-2'"), ['order-2']);
    assert.deepEqual(ids("WorkflowType = 'PaymentWorkflow'"), ['payment-1']);
    assert.deepEqual(ids("TaskQueue = 'main'"), ['order-1', 'order-2']);
  });

  it('range operators on keyword compare lexicographically', () => {
    assert.deepEqual(ids("CustomKeywordField > 'alpha'"), ['order-2']);
    assert.deepEqual(ids("CustomKeywordField >= 'alpha'"), ['order-1', 'order-2']);
    assert.deepEqual(ids("CustomKeywordField < 'beta'"), ['order-1']);
    assert.deepEqual(ids("CustomKeywordField <= 'beta'"), ['order-1', 'order-2']);
  });

  it('numeric operators on Int and Double', () => {
    assert.deepEqual(ids('CustomIntField = 10'), ['order-1']);
    assert.deepEqual(ids('CustomIntField != 10'), ['order-2']);
    assert.deepEqual(ids('CustomIntField > 10'), ['order-2']);
    assert.deepEqual(ids('CustomIntField >= 10'), ['order-1', 'order-2']);
    assert.deepEqual(ids('CustomIntField < 20'), ['order-1']);
    assert.deepEqual(ids('CustomIntField <= 20'), ['order-1', 'order-2']);
    assert.deepEqual(ids('CustomDoubleField > 0'), ['order-1']);
    assert.deepEqual(ids('CustomDoubleField < -2'), ['order-2']);
    assert.deepEqual(ids('CustomDoubleField = -2.25'), ['order-2']);
    assert.deepEqual(ids('CustomDoubleField >= 1.5e0'), ['order-1']);
    assert.deepEqual(ids('CustomDoubleField < .5'), ['order-2']);
  });

  it('= and != on Bool', () => {
    assert.deepEqual(ids('CustomBoolField = true'), ['order-1']);
    assert.deepEqual(ids('CustomBoolField = FALSE'), ['order-2']);
    assert.deepEqual(ids('CustomBoolField != true'), ['order-2']);
  });

  it('ExecutionStatus accepts names, enum names and numbers', () => {
    assert.deepEqual(ids("ExecutionStatus = 'Running'"), ['order-1']);
    assert.deepEqual(ids('ExecutionStatus = "completed"'), ['order-2']);
    assert.deepEqual(ids("ExecutionStatus = 'WORKFLOW_EXECUTION_STATUS_FAILED'"), ['payment-1']);
    assert.deepEqual(ids('ExecutionStatus = 3'), ['payment-1']);
    assert.deepEqual(ids("ExecutionStatus != 'Running'"), ['order-2', 'payment-1']);
    assert.deepEqual(ids("ExecutionStatus IN ('Completed', 'Failed')"), ['order-2', 'payment-1']);
    assert.deepEqual(ids("ExecutionStatus NOT IN ('Completed', 'Failed')"), ['order-1']);
    const continued = rec({ id: 'c', status: 'ContinuedAsNew' });
    assert.deepEqual(ids("ExecutionStatus = 'WORKFLOW_EXECUTION_STATUS_CONTINUED_AS_NEW'", [continued]), [
      'c',
    ]);
    assert.deepEqual(ids("ExecutionStatus = 'TimedOut'", [continued]), []);
  });

  it('rejects unknown execution statuses and range comparisons on status', () => {
    rejects("ExecutionStatus = 'Done'", /invalid value 'Done'.*ExecutionStatus.*'Running'/);
    rejects('ExecutionStatus = 9', /invalid value 9/);
    rejects("ExecutionStatus > 'Running'", /operator > is not supported for ExecutionStatus/);
  });
});

describe('IN / NOT IN', () => {
  it('matches any listed value', () => {
    assert.deepEqual(ids("WorkflowId IN ('order-1', 'payment-1', 'nope')"), ['order-1', 'payment-1']);
    assert.deepEqual(ids('CustomIntField IN (20, 30)'), ['order-2']);
    assert.deepEqual(ids("WorkflowId in ('order-1')"), ['order-1']);
  });

  it('NOT IN requires the attribute to be present', () => {
    assert.deepEqual(ids("WorkflowId NOT IN ('order-1', 'payment-1')"), ['order-2']);
    // payment-1 has no CustomIntField, so the comparison is false
    assert.deepEqual(ids('CustomIntField NOT IN (20)'), ['order-1']);
  });

  it('rejects an empty or unterminated list', () => {
    rejects('WorkflowId IN ()', /unexpected '\)'.*expected a value/);
    rejects("WorkflowId IN ('a', 'b'", /unexpected end of query/);
    rejects("WorkflowId IN 'a'", /expected '\(' after IN/);
  });
});

describe('BETWEEN / NOT BETWEEN', () => {
  it('is inclusive on both ends', () => {
    assert.deepEqual(ids('CustomIntField BETWEEN 10 AND 20'), ['order-1', 'order-2']);
    assert.deepEqual(ids('CustomIntField BETWEEN 11 AND 20'), ['order-2']);
    assert.deepEqual(ids('CustomIntField between 10 and 19'), ['order-1']);
    assert.deepEqual(ids("CustomKeywordField BETWEEN 'a' AND 'b'"), ['order-1']);
  });

  it('NOT BETWEEN excludes the range and missing values', () => {
    assert.deepEqual(ids('CustomIntField NOT BETWEEN 11 AND 20'), ['order-1']);
  });

  it('BETWEEN ... AND does not swallow the following logical AND', () => {
    assert.deepEqual(ids("CustomIntField BETWEEN 10 AND 20 AND WorkflowId = 'order-2'"), ['order-2']);
  });

  it('rejects incomplete BETWEEN', () => {
    rejects('CustomIntField BETWEEN 10', /expected AND/);
    rejects('CustomIntField BETWEEN 10 OR 20', /unexpected 'OR'.*expected AND/);
  });
});

describe('STARTS_WITH', () => {
  it('matches keyword prefixes', () => {
    assert.deepEqual(ids("WorkflowId STARTS_WITH 'order-'"), ['order-1', 'order-2']);
    assert.deepEqual(ids("WorkflowId starts_with 'pay'"), ['payment-1']);
    assert.deepEqual(ids("WorkflowId NOT STARTS_WITH 'order-'"), ['payment-1']);
    assert.deepEqual(ids("CustomKeywordField STARTS_WITH ''"), ['order-1', 'order-2']);
  });

  it('is only allowed on keywords', () => {
    rejects("CustomTextField STARTS_WITH 'my'", /STARTS_WITH is not supported for Text/);
    rejects("CustomKeywordListField STARTS_WITH 'r'", /STARTS_WITH is not supported for KeywordList/);
    rejects('CustomIntField STARTS_WITH 1', /STARTS_WITH is not supported for Int/);
  });
});

describe('IS NULL / IS NOT NULL', () => {
  it('tests attribute presence', () => {
    assert.deepEqual(ids('CloseTime IS NULL'), ['order-1']);
    assert.deepEqual(ids('CloseTime IS NOT NULL'), ['order-2', 'payment-1']);
    assert.deepEqual(ids('CustomKeywordField is null'), ['payment-1']);
    assert.deepEqual(ids('CustomIntField IS NOT NULL'), ['order-1', 'order-2']);
  });

  it('treats an empty keyword list as missing', () => {
    assert.deepEqual(ids('CustomKeywordListField IS NULL'), ['payment-1']);
  });

  it('rejects NULL as a comparison value', () => {
    rejects('CloseTime = NULL', /NULL .* can only be used as IS NULL/);
    rejects('CloseTime IS 5', /expected NULL/);
  });
});

describe('missing attributes', () => {
  it('make every comparison false', () => {
    const none = rec({ id: 'none' });
    for (const query of [
      "CustomKeywordField = 'x'",
      "CustomKeywordField != 'x'",
      "CustomKeywordField NOT IN ('x')",
      'CustomIntField < 100',
      'CustomIntField NOT BETWEEN 1 AND 2',
      "CustomKeywordField NOT STARTS_WITH 'x'",
      "CloseTime != '2024-01-01T00:00:00Z'",
      "CustomTextField != 'x'",
      "CustomKeywordListField != 'x'",
      'CustomBoolField != true',
    ]) {
      assert.deepEqual(ids(query, [none]), [], query);
    }
  });

  it('ignores values of the wrong runtime type', () => {
    const odd = rec({ id: 'odd', searchAttributes: { CustomIntField: 'ten' } });
    assert.deepEqual(ids('CustomIntField = 10', [odd]), []);
    assert.deepEqual(ids('CustomIntField IS NOT NULL', [odd]), ['odd']);
  });
});

describe('KeywordList', () => {
  it('= means contains, != means does not contain', () => {
    assert.deepEqual(ids("CustomKeywordListField = 'green'"), ['order-1']);
    assert.deepEqual(ids("CustomKeywordListField = 'blue'"), ['order-2']);
    assert.deepEqual(ids("CustomKeywordListField != 'green'"), ['order-2']);
  });

  it('IN means contains any, NOT IN means contains none', () => {
    assert.deepEqual(ids("CustomKeywordListField IN ('blue', 'red')"), ['order-1', 'order-2']);
    assert.deepEqual(ids("CustomKeywordListField NOT IN ('red', 'yellow')"), ['order-2']);
  });

  it('rejects range operators and non-string values', () => {
    rejects("CustomKeywordListField > 'a'", /operator > is not supported for KeywordList/);
    rejects('CustomKeywordListField = 1', /expected a quoted string/);
  });

  it('single-valued attributes holding an array match on any element', () => {
    const multi = rec({ id: 'm', searchAttributes: { CustomKeywordField: ['x', 'y'] } });
    assert.deepEqual(ids("CustomKeywordField = 'y'", [multi]), ['m']);
    assert.deepEqual(ids("CustomKeywordField != 'y'", [multi]), []);
  });
});

describe('Text', () => {
  it('= matches whole words case-insensitively', () => {
    assert.deepEqual(ids("CustomTextField = 'foobar'"), ['order-1']);
    assert.deepEqual(ids("CustomTextField = 'fox'"), ['order-2']);
    assert.deepEqual(ids("CustomTextField = 'foo'"), []);
    assert.deepEqual(ids("CustomTextField = 'lazy FOX'"), ['order-2']);
    assert.deepEqual(ids("CustomTextField != 'fox'"), ['order-1']);
  });

  it('rejects ordering operators', () => {
    rejects("CustomTextField > 'a'", /operator > is not supported for Text/);
    rejects("CustomTextField IN ('a')", /operator IN is not supported for Text/);
  });
});

describe('datetime', () => {
  it('compares RFC 3339 values by instant', () => {
    assert.deepEqual(ids("StartTime > '2024-01-01T10:00:00Z'"), ['order-2', 'payment-1']);
    assert.deepEqual(ids("StartTime >= '2024-01-01T10:00:00Z'"), ['order-1', 'order-2', 'payment-1']);
    assert.deepEqual(ids("StartTime = '2024-01-01T11:00:00+01:00'"), ['order-1']);
    assert.deepEqual(ids("StartTime = '2024-01-01T05:30:00-04:30'"), ['order-1']);
    assert.deepEqual(ids("StartTime < '2024-01-02t10:00:00.000000001z'"), ['order-1', 'order-2']);
    assert.deepEqual(ids("StartTime = '2024-01-02 10:00:00Z'"), ['order-2']);
  });

  it('honours sub-millisecond fractions', () => {
    assert.deepEqual(ids("CustomDatetimeField = '2024-06-01T12:00:00.25Z'"), ['order-1']);
    assert.deepEqual(ids("CustomDatetimeField >= '2024-06-01T12:00:00.250000001Z'"), []);
    assert.deepEqual(ids("CustomDatetimeField > '2024-06-01T12:00:00.249999999Z'"), ['order-1']);
  });

  it('supports BETWEEN, IN and missing values', () => {
    assert.deepEqual(ids("CloseTime BETWEEN '2024-01-02T00:00:00Z' AND '2024-01-03T00:00:00Z'"), ['order-2']);
    assert.deepEqual(ids("CloseTime NOT BETWEEN '2024-01-02T00:00:00Z' AND '2024-01-03T00:00:00Z'"), [
      'payment-1',
    ]);
    assert.deepEqual(ids("ExecutionTime IN ('2024-01-02T10:00:00Z')"), ['order-2']);
    assert.deepEqual(ids("ExecutionTime < '2030-01-01T00:00:00Z'"), ['order-2']);
  });

  it('accepts datetime search attribute values stored as strings', () => {
    const r = rec({ id: 's', searchAttributes: { CustomDatetimeField: '2024-06-01T12:00:00Z' } });
    assert.deepEqual(ids("CustomDatetimeField = '2024-06-01T14:00:00+02:00'", [r]), ['s']);
  });

  it('rejects values that are not RFC 3339 timestamps', () => {
    for (const value of [
      "'yesterday'",
      "'2024-01-01'",
      "'2024-01-01T00:00:00'",
      "'2024-02-30T00:00:00Z'",
      "'2024-13-01T00:00:00Z'",
      "'2024-01-01T24:00:00Z'",
      "'2024-01-01T00:00:00.1234567891Z'",
      '1704067200',
    ]) {
      rejects(`StartTime > ${value}`, /expected an RFC 3339 timestamp/);
    }
  });
});
