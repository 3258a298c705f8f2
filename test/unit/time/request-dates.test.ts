import assert from 'node:assert/strict';
import { test } from 'vitest';
import { kybSubmission, kycSubmission } from '../../../src/accounts/compliance/submissions.ts';

const person = (birthdate: string) => ({
  firstName: 'Ada',
  lastName: 'Lovelace',
  email: 'ada@example.com',
  birthdate,
  address: { line1: 'Königstraße 1', city: 'Stuttgart', postalCode: '70173', country: 'DE' },
});
const kyc = (birthdate: string) => ({
  individual: person(birthdate),
  payoutIban: 'DE89 3704 0044 0532 0130 00',
  tosAcceptance: { accepted: true },
});
const kyb = (birthdate: string) => ({
  company: { name: 'Voltaic Cells SE', taxId: 'DE123456789', address: person('').address },
  representative: person(birthdate),
  tosAcceptance: { accepted: true },
});

/** KYC/KYB birthdates take the one date rule (issue 33 item 3): a real day, year 0001 or later. */
test('compliance submissions refuse impossible birthdates', () => {
  for (const birthdate of ['1990-02-29', '0000-01-01', '1990-13-01']) {
    assert.equal(kycSubmission.safeParse(kyc(birthdate)).success, false, `kyc ${birthdate}`);
    assert.equal(kybSubmission.safeParse(kyb(birthdate)).success, false, `kyb ${birthdate}`);
  }
  for (const birthdate of ['1992-02-29', '1990-12-31']) {
    const parsed = kycSubmission.safeParse(kyc(birthdate));
    assert.ok(parsed.success, JSON.stringify(parsed.error?.issues));
    assert.ok(kybSubmission.safeParse(kyb(birthdate)).success, `kyb ${birthdate}`);
  }
});
