import assert from 'node:assert/strict';
import { describe, test } from 'vitest';
import { retainUntil, retentionRule } from '../../src/lifecycle/archive/retention.ts';
import { nextDppStatus, STATUS_ACTIONS, writeRefusal } from '../../src/passport/record/dpp-status-rule.ts';
import { DomainError } from '../../src/platform/errors.ts';

const code = (result: unknown) => (result instanceof DomainError ? result.code : result);

describe('EN 18222 status rule (any passport level)', () => {
  test('transitions', () => {
    const active = { dppStatus: 'active', revoked: false } as const;
    const suspended = { dppStatus: 'suspended', revoked: false } as const;
    assert.equal(nextDppStatus(active, 'suspend'), 'suspended');
    assert.equal(nextDppStatus(suspended, 'reactivate'), 'active');
    assert.equal(nextDppStatus(active, 'archive'), 'archived');
    assert.equal(nextDppStatus(suspended, 'end_of_life'), 'archived');
    assert.equal(code(nextDppStatus(active, 'reactivate')), 'dpp_status_transition_refused');
    assert.equal(code(nextDppStatus(suspended, 'suspend')), 'dpp_status_transition_refused');
    assert.equal(
      code(nextDppStatus({ dppStatus: 'suspended', revoked: true }, 'reactivate')),
      'passport_revoked',
    );
    for (const action of STATUS_ACTIONS) {
      assert.equal(code(nextDppStatus({ dppStatus: 'archived', revoked: false }, action)), 'dpp_archived');
    }
  });

  test('writes: only an active passport takes them', () => {
    assert.equal(writeRefusal('active'), undefined);
    assert.equal(writeRefusal('suspended')?.code, 'dpp_suspended');
    assert.equal(writeRefusal('archived')?.code, 'dpp_archived');
  });

  test('retention: construction 25 years, battery until recycled, default 10 years; the longest wins', () => {
    const at = new Date('2030-03-01T12:00:00Z');
    assert.equal(retainUntil(retentionRule(['construction']), at)?.toISOString(), '2055-03-01T12:00:00.000Z');
    assert.equal(retainUntil(retentionRule([]), at)?.toISOString(), '2040-03-01T12:00:00.000Z');
    assert.equal(retainUntil(retentionRule(['textile']), at)?.toISOString(), '2040-03-01T12:00:00.000Z');
    assert.equal(retainUntil(retentionRule(['battery']), at), null);
    assert.equal(retentionRule(['construction', 'battery']).rule, 'battery');
    assert.match(retentionRule(['construction']).basis, /2024\/3110/);
  });
});
