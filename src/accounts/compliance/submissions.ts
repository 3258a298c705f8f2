import type { EntityManager } from '@mikro-orm/postgresql';
import type Stripe from 'stripe';
import { z } from 'zod';
import type { Environment } from '../../platform/config/config.ts';
import { fullDateField } from '../../standards/time/zod-rfc3339.ts';
import { type AccountOwner, existingAccountId, saveAccount } from './connect-accounts.ts';

const country = z.string().regex(/^[A-Z]{2}$/, 'an ISO 3166-1 alpha-2 code such as DE');
const address = z
  .object({
    line1: z.string().trim().min(1).max(200),
    line2: z.string().trim().max(200).optional(),
    city: z.string().trim().min(1).max(100),
    postalCode: z.string().trim().min(1).max(20),
    country,
  })
  .strict();
const birthdate = fullDateField().describe('YYYY-MM-DD');
const person = {
  firstName: z.string().trim().min(1).max(100),
  lastName: z.string().trim().min(1).max(100),
  email: z.email().max(254),
  birthdate,
  address,
};
const tos = z
  .object({ accepted: z.literal(true), ip: z.union([z.ipv4(), z.ipv6()]).optional() })
  .strict()
  .describe('The company or person accepted Stripe’s Connected Account Agreement (required).');

export const kybSubmission = z
  .object({
    company: z
      .object({
        name: z.string().trim().min(1).max(200),
        taxId: z.string().trim().min(2).max(40),
        address,
        phone: z.string().trim().max(30).optional(),
      })
      .strict(),
    representative: z.object({ ...person, title: z.string().trim().max(100).optional() }).strict(),
    tosAcceptance: tos,
  })
  .strict();

export const kycSubmission = z
  .object({
    individual: z.object(person).strict(),
    payoutIban: z
      .string()
      .transform((value) => value.replace(/\s/g, '').toUpperCase())
      .pipe(z.string().regex(/^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/, 'an IBAN'))
      .describe('Where payouts go. Never returned or logged; status shows no part of it.'),
    tosAcceptance: tos,
  })
  .strict();

export type KybSubmission = z.infer<typeof kybSubmission>;
export type KycSubmission = z.infer<typeof kycSubmission>;

const dob = (date: string) => {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  return { day, month, year };
};
const stripeAddress = (a: z.infer<typeof address>) => ({
  line1: a.line1,
  ...(a.line2 ? { line2: a.line2 } : {}),
  city: a.city,
  postal_code: a.postalCode,
  country: a.country,
});

/**
 * Creates the owner's custom Connect account (the transfers capability, for payouts) or updates the one it has.
 * A double submit creates one account: Stripe's idempotency key is the owner's.
 */
async function upsertAccount(
  em: EntityManager,
  stripe: Stripe,
  owner: AccountOwner,
  environment: Environment,
  country: string,
  details: Stripe.AccountUpdateParams & Stripe.AccountCreateParams,
): Promise<Stripe.Account> {
  const accountId = await existingAccountId(em, owner, environment);
  if (accountId) return stripe.accounts.update(accountId, details);
  return stripe.accounts.create(
    {
      ...details,
      type: 'custom',
      country,
      capabilities: { transfers: { requested: true } },
      metadata: { ownerKind: owner.kind, ownerId: owner.id, environment },
    },
    { idempotencyKey: `dpp-connect-${owner.kind}-${owner.id}-${environment}` },
  );
}

/**
 * A company's Connect account (custom, transfers capability) with its company details and its representative,
 * created on first submission and updated by later ones (Stripe's idempotency key guards a double submit).
 */
export async function submitKyb(
  em: EntityManager,
  stripe: Stripe,
  owner: AccountOwner,
  environment: Environment,
  input: KybSubmission,
  acceptedAt: Date,
): Promise<string> {
  const details = {
    business_type: 'company' as const,
    company: {
      name: input.company.name,
      tax_id: input.company.taxId,
      address: stripeAddress(input.company.address),
      ...(input.company.phone ? { phone: input.company.phone } : {}),
    },
    tos_acceptance: {
      date: Math.floor(acceptedAt.getTime() / 1000),
      ...(input.tosAcceptance.ip ? { ip: input.tosAcceptance.ip } : {}),
    },
  };
  const account = await upsertAccount(em, stripe, owner, environment, input.company.address.country, details);
  await stripe.accounts.createPerson(account.id, {
    first_name: input.representative.firstName,
    last_name: input.representative.lastName,
    email: input.representative.email,
    dob: dob(input.representative.birthdate),
    address: stripeAddress(input.representative.address),
    relationship: {
      representative: true,
      ...(input.representative.title ? { title: input.representative.title } : {}),
    },
  });
  await saveAccount(em, owner, environment, account);
  return account.id;
}

/** An individual seller's Connect account with their details and payout bank account (IBAN). */
export async function submitKyc(
  em: EntityManager,
  stripe: Stripe,
  owner: AccountOwner,
  environment: Environment,
  input: KycSubmission,
  acceptedAt: Date,
): Promise<string> {
  const details = {
    business_type: 'individual' as const,
    individual: {
      first_name: input.individual.firstName,
      last_name: input.individual.lastName,
      email: input.individual.email,
      dob: dob(input.individual.birthdate),
      address: stripeAddress(input.individual.address),
    },
    // The IBAN becomes a Stripe bank-account token first: only the token's id travels further.
    external_account: (
      await stripe.tokens.create({
        bank_account: {
          country: input.payoutIban.slice(0, 2),
          currency: 'eur',
          account_number: input.payoutIban,
          account_holder_name: `${input.individual.firstName} ${input.individual.lastName}`,
          account_holder_type: 'individual',
        },
      })
    ).id,
    tos_acceptance: {
      date: Math.floor(acceptedAt.getTime() / 1000),
      ...(input.tosAcceptance.ip ? { ip: input.tosAcceptance.ip } : {}),
    },
  };
  const account = await upsertAccount(
    em,
    stripe,
    owner,
    environment,
    input.individual.address.country,
    details,
  );
  await saveAccount(em, owner, environment, account);
  return account.id;
}
