import type { EntityManager } from '@mikro-orm/postgresql';
import type Stripe from 'stripe';
import type { Environment } from '../../platform/config/config.ts';

/** Who a Connect account belongs to: a company (KYB) or a person (KYC). */
export type AccountOwner = { kind: 'company'; id: string } | { kind: 'user'; id: string };

export interface ComplianceStatus {
  /** `not_started` (no account yet), `pending` (requirements outstanding or under review), `verified`, `restricted`. */
  status: string;
  verified: boolean;
  /** Stripe's outstanding requirements, e.g. company.tax_id, individual.verification.document. */
  requirements: string[];
  connectId: string | null;
}

/** What Stripe's account tells: verified once payouts are enabled and nothing is due. */
export function statusOf(account: Stripe.Account): Omit<ComplianceStatus, 'connectId'> {
  const due = [
    ...(account.requirements?.currently_due ?? []),
    ...(account.requirements?.past_due ?? []),
  ].filter((value, index, all) => all.indexOf(value) === index);
  const verified = Boolean(account.payouts_enabled) && due.length === 0;
  const status = verified ? 'verified' : account.requirements?.disabled_reason ? 'restricted' : 'pending';
  return { status, verified, requirements: due };
}

interface AccountRow {
  account_id: string;
  status: string;
  verified: boolean;
  requirements: string[] | string;
}

export async function complianceStatus(
  em: EntityManager,
  owner: AccountOwner,
  environment: Environment,
): Promise<ComplianceStatus> {
  const [row] = await em.execute<AccountRow[]>(
    'select * from connect_accounts where owner_kind = ? and owner_id = ? and environment = ?',
    [owner.kind, owner.id, environment],
  );
  if (!row) return { status: 'not_started', verified: false, requirements: [], connectId: null };
  const requirements = typeof row.requirements === 'string' ? JSON.parse(row.requirements) : row.requirements;
  return { status: row.status, verified: row.verified, requirements, connectId: row.account_id };
}

export async function existingAccountId(
  em: EntityManager,
  owner: AccountOwner,
  environment: Environment,
): Promise<string | undefined> {
  return (await complianceStatus(em, owner, environment)).connectId ?? undefined;
}

/** Records the account (first submission) or its latest state (later submissions). */
export async function saveAccount(
  em: EntityManager,
  owner: AccountOwner,
  environment: Environment,
  account: Stripe.Account,
): Promise<void> {
  const state = statusOf(account);
  await em.execute(
    `insert into connect_accounts (owner_kind, owner_id, environment, account_id, status, verified, requirements)
     values (?, ?, ?, ?, ?, ?, ?::jsonb)
     on conflict (owner_kind, owner_id, environment) do update set
       status = excluded.status, verified = excluded.verified, requirements = excluded.requirements`,
    [
      owner.kind,
      owner.id,
      environment,
      account.id,
      state.status,
      state.verified,
      JSON.stringify(state.requirements),
    ],
  );
}

/** account.updated: the account's verification, unless an event newer than this one was applied already. */
export async function applyAccountUpdated(em: EntityManager, environment: Environment, event: Stripe.Event) {
  const account = event.data.object as Stripe.Account;
  const state = statusOf(account);
  const at = new Date(event.created * 1000);
  await em.execute(
    `update connect_accounts set status = ?, verified = ?, requirements = ?::jsonb, updated_from_event_at = ?
     where account_id = ? and environment = ? and (updated_from_event_at is null or updated_from_event_at <= ?)`,
    [state.status, state.verified, JSON.stringify(state.requirements), at, account.id, environment, at],
  );
}

/** Where a seller's payout goes, for the resale payout: null until the seller has an account. */
export async function payoutAccount(
  em: EntityManager,
  owner: AccountOwner,
  environment: Environment,
): Promise<{ connectId: string; verified: boolean } | null> {
  const status = await complianceStatus(em, owner, environment);
  return status.connectId ? { connectId: status.connectId, verified: status.verified } : null;
}
