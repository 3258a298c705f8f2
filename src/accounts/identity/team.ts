import { createHash, randomBytes } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Mailer } from '../../adapters/mail/mailer.ts';
import { DomainError } from '../../platform/errors.ts';
import { normaliseEmail } from './email.ts';
import { isRole, type Role } from './roles.ts';

/** A person of the company, as the console's Team page shows them. */
export interface Member {
  id: number;
  email: string;
  role: Role;
  emailConfirmed: boolean;
  createdAt: string;
}

interface MemberRow {
  id: number;
  email: string;
  role: string;
  email_confirmed: boolean;
  created_at: Date;
}

const toMember = (row: MemberRow): Member => ({
  id: row.id,
  email: row.email,
  role: isRole(row.role) ? row.role : 'viewer',
  emailConfirmed: row.email_confirmed,
  createdAt: new Date(row.created_at).toISOString(),
});

const COLUMNS = 'id, email, role, email_confirmed_at is not null as email_confirmed, created_at';

/** The company's people, oldest first. */
export async function listMembers(em: EntityManager, companyId: string): Promise<Member[]> {
  const rows = await em.execute<MemberRow[]>(
    `select ${COLUMNS} from users where company_id = ? order by created_at, id`,
    [companyId],
  );
  return rows.map(toMember);
}

/**
 * Gives a person of the company another role. A company always keeps an owner: demoting the last one → 409
 * `last_owner`. The company's people are locked for the change, so two owners demoting each other at once
 * cannot both succeed.
 */
export async function changeMemberRole(
  em: EntityManager,
  companyId: string,
  userId: number,
  role: Role,
): Promise<Member> {
  return em.fork().transactional(async (tx) => {
    const people = await tx.execute<{ id: number; role: string }[]>(
      'select id, role from users where company_id = ? order by id for update',
      [companyId],
    );
    const target = people.find((p) => p.id === userId);
    if (!target)
      throw new DomainError('not_found', 'member_not_found', `No person ${userId} in this company.`);
    const owners = people.filter((p) => p.role === 'owner').length;
    if (target.role === 'owner' && role !== 'owner' && owners === 1) {
      throw new DomainError(
        'conflict',
        'last_owner',
        'This is the company’s only owner: make someone else an owner first.',
      );
    }
    const [row] = await tx.execute<MemberRow[]>(
      `update users set role = ? where id = ? and company_id = ? returning ${COLUMNS}`,
      [role, userId, companyId],
    );
    return toMember(row!);
  });
}

/**
 * Removes a person from the company (their account is deleted: console sessions, passkeys, pending links and
 * SSO identities go with it, so every console session of theirs ends at once). A company always keeps an owner:
 * removing the last one → 409 `last_owner`; the company's people are locked as for a role change.
 */
export async function removeMember(em: EntityManager, companyId: string, userId: number): Promise<Member> {
  return em.fork().transactional(async (tx) => {
    const people = await tx.execute<{ id: number; role: string }[]>(
      'select id, role from users where company_id = ? order by id for update',
      [companyId],
    );
    const target = people.find((p) => p.id === userId);
    if (!target)
      throw new DomainError('not_found', 'member_not_found', `No person ${userId} in this company.`);
    if (target.role === 'owner' && people.filter((p) => p.role === 'owner').length === 1) {
      throw new DomainError(
        'conflict',
        'last_owner',
        'This is the company’s only owner: make someone else an owner first.',
      );
    }
    const [row] = await tx.execute<MemberRow[]>(
      `delete from users where id = ? and company_id = ? returning ${COLUMNS}`,
      [userId, companyId],
    );
    return toMember(row!);
  });
}

/** An invitation link works once, for 7 days. */
export const INVITATION_DAYS = 7;

/**
 * Invites a person into the company with a role: their account is created without a password, and the mail
 * carries a single-use link to the password page (`/reset-password`), which sets the password and confirms the
 * address: the same token kind as a password reset (stored as a SHA-256 hash), valid 7 days. The mail is sent
 * before the transaction commits, so an address that cannot receive it leaves nothing behind. Inviting again a
 * person who has not set a password yet sends a new link; any other existing account → 409.
 */
export async function inviteMember(
  em: EntityManager,
  mailer: Mailer,
  input: {
    companyId: string;
    companyName: string;
    invitedBy: string;
    email: string;
    role: Role;
    passwordUrl: (token: string) => string;
    consoleUrl: string;
  },
): Promise<Member> {
  const email = normaliseEmail(input.email);
  return em.fork().transactional(async (tx) => {
    const [existing] = await tx.execute<{ id: number; company_id: string; password_hash: string | null }[]>(
      'select id, company_id, password_hash from users where email = ? for update',
      [email],
    );
    let userId: number;
    if (existing && existing.company_id === input.companyId && existing.password_hash === null) {
      userId = existing.id;
      await tx.execute('update users set role = ? where id = ?', [input.role, userId]);
    } else if (existing) {
      throw new DomainError('conflict', 'email_already_registered', `${email} already has an account.`);
    } else {
      const [created] = await tx.execute<{ id: number }[]>(
        `insert into users (company_id, email, password_hash, role, created_at) values (?, ?, null, ?, now())
         returning id`,
        [input.companyId, email, input.role],
      );
      userId = created!.id;
    }
    const token = randomBytes(32).toString('base64url');
    await tx.execute(
      `insert into user_email_tokens (token_hash, user_id, purpose, expires_at)
       values (?, ?, 'reset_password', now() + interval '${INVITATION_DAYS} days')`,
      [createHash('sha256').update(token).digest(), userId],
    );
    await mailer.send({
      to: email,
      subject: `${input.invitedBy} invited you to ${input.companyName}`,
      text:
        `${input.invitedBy} invited you to join ${input.companyName} on the Digital Product Passport service ` +
        `as ${input.role}.\n\nChoose your password:\n${input.passwordUrl(token)}\n\nThe link works once, for ` +
        `${INVITATION_DAYS} days. Then sign in to the console: ${input.consoleUrl}\n\nIf you did not expect ` +
        'this invitation, ignore this mail.\n',
    });
    const [row] = await tx.execute<MemberRow[]>(`select ${COLUMNS} from users where id = ?`, [userId]);
    return toMember(row!);
  });
}
