import assert from 'node:assert/strict';
import { describe, test } from 'vitest';
import { customDppDataSchema } from '../../src/lifecycle/mint/mint-request.ts';

const base = { conformity_url: 'https://acme.example/conformity.pdf' };

describe('custom_dpp_data scorecard fields (carbon footprint, recycled content, repairability, life span)', () => {
  test('accepted as numbers within their ranges, all optional', () => {
    const full = {
      ...base,
      carbon_footprint: 12.5,
      recycled_content: 30,
      repairability_score: 7.5,
      expected_lifespan_years: 8,
    };
    assert.deepEqual(customDppDataSchema.parse(full), full);
    assert.deepEqual(customDppDataSchema.parse(base), base);
  });

  test('refused out of range or not numbers, naming the field', () => {
    for (const [field, value] of [
      ['carbon_footprint', -1],
      ['recycled_content', 101],
      ['repairability_score', 11],
      ['expected_lifespan_years', 0],
      ['carbon_footprint', '12.5'],
    ] as const) {
      const result = customDppDataSchema.safeParse({ ...base, [field]: value });
      assert.equal(result.success, false, `${field}=${value}`);
      assert.equal(result.error?.issues[0]?.path[0], field);
    }
  });
});
