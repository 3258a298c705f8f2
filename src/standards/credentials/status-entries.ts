import { randomInt } from 'node:crypto';
import { type EntityManager, UniqueConstraintViolationException } from '@mikro-orm/postgresql';
import type { Environment } from '../../platform/config/config.ts';
import { STATUS_LIST_CAPACITY, STATUS_LIST_SIZE } from './status-list.ts';

export interface StatusEntry {
  list: number;
  index: number;
}

const CURRENT_LIST = `select coalesce(max(status_list), 1) as list from passports
  where environment = ? and status_list_index is not null`;
const LIST_COUNT = `select count(*)::int as count from passports
  where environment = ? and status_list = ? and status_list_index is not null`;
// An index another passport holds is skipped here (no row updated) rather than by the unique index's error.
const TAKE = `update passports set status_list = ?, status_list_index = ?
  where id = ? and status_list_index is null
    and not exists (select 1 from passports taken
                    where taken.environment = passports.environment and taken.status_list = ?
                      and taken.status_list_index = ?)
  returning status_list, status_list_index`;
const READ = 'select status_list, status_list_index from passports where id = ?';

/**
 * The passport's entry in its environment's status lists, drawn once at random (a free index of the open list)
 * when its first credential is issued. Raw statements: the caller has found the passport already, whatever its
 * company (the public resolver).
 */
export async function ensureStatusEntry(
  em: EntityManager,
  passport: {
    id: number;
    environment: Environment;
    statusList: number | null;
    statusListIndex: number | null;
  },
  draw: (size: number) => number = randomInt,
): Promise<StatusEntry> {
  if (passport.statusList !== null && passport.statusListIndex !== null) {
    return { list: passport.statusList, index: passport.statusListIndex };
  }
  const connection = em.getConnection();
  const [{ list: current } = { list: 1 }] = await connection.execute<{ list: number }[]>(CURRENT_LIST, [
    passport.environment,
  ]);
  const [{ count } = { count: 0 }] = await connection.execute<{ count: number }[]>(LIST_COUNT, [
    passport.environment,
    current,
  ]);
  const list = count >= STATUS_LIST_CAPACITY ? current + 1 : current;
  for (let attempt = 0; attempt < 64; attempt++) {
    const index = draw(STATUS_LIST_SIZE);
    try {
      // em.execute, not the connection's: only it turns PostgreSQL's unique violation (two passports drawing the
      // same free index at once) into UniqueConstraintViolationException.
      const [taken] = await em.execute<{ status_list: number; status_list_index: number }[]>(TAKE, [
        list,
        index,
        passport.id,
        list,
        index,
      ]);
      if (taken) return { list: taken.status_list, index: taken.status_list_index };
      const [row] = await em.execute<{ status_list: number | null; status_list_index: number | null }[]>(
        READ,
        [passport.id],
      );
      if (!row) throw new Error(`passport ${passport.id} vanished while its status entry was drawn`);
      // Drawn meanwhile by another request for the same passport; else the index was taken: draw again.
      if (row.status_list !== null && row.status_list_index !== null) {
        return { list: row.status_list, index: row.status_list_index };
      }
    } catch (error) {
      if (!(error instanceof UniqueConstraintViolationException)) throw error;
    }
  }
  throw new Error(`no free status list index found in list ${list} of ${passport.environment}`);
}

/** Indexes of the revoked passports of one list. */
export async function revokedIndexes(
  em: EntityManager,
  environment: Environment,
  list: number,
): Promise<number[]> {
  const rows = await em.getConnection().execute<{ status_list_index: number }[]>(
    `select status_list_index from passports
       where environment = ? and status_list = ? and revoked_at is not null and status_list_index is not null
       order by status_list_index`,
    [environment, list],
  );
  return rows.map((row) => row.status_list_index);
}
