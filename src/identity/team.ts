import type { EntityManager } from '@mikro-orm/postgresql';
import { DomainError } from '../errors.ts';
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
