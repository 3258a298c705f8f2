import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { ensureStatusEntry } from '../../src/standards/credentials/status-entries.ts';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';

// A passport's first credential draws its status list index at random; this file makes the draw collide.
describe("a passport's status list entry", () => {
  let db: TestDatabase;
  const passports: number[] = [];

  beforeAll(async () => {
    db = await createTestDatabase();
    const sql = <T>(query: string, params: unknown[] = []) => db.orm.em.fork().execute<T[]>(query, params);
    const [company] = await sql<{ id: string }>(
      `insert into companies (id, name) values (gen_random_uuid(), 'Status Co') returning id`,
    );
    for (let i = 1; i <= 4; i++) {
      const chipUid = `04AA00000000${String(i).padStart(2, '0')}`;
      const [chip] = await sql<{ id: number }>(
        `insert into chips (company_id, environment, chip_uid, status) values (?, 'test', ?, 'ACTIVE') returning id`,
        [company!.id, chipUid],
      );
      const [passport] = await sql<{ id: number }>(
        `insert into passports (company_id, environment, token_id, chip_id, chip_uid, owner_wallet, metadata_url,
           service_uid, transaction_hash, mint_block, mint_timestamp, locked_deposit_wei, metadata_cache,
           contract_address)
         values (?, 'test', ?, ?, ?, ?, 'ipfs://x', gen_random_uuid(), ?, 1, now(), 0, '{}', ?) returning id`,
        [
          company!.id,
          String(i),
          chip!.id,
          chipUid,
          `0x${'22'.repeat(20)}`,
          `0x${'ab'.repeat(32)}`,
          `0x${'11'.repeat(20)}`,
        ],
      );
      passports.push(passport!.id);
    }
  });
  afterAll(() => db?.drop());

  const fresh = (id: number) => ({
    id,
    environment: 'test' as const,
    statusList: null,
    statusListIndex: null,
  });
  const drawing = (...indexes: number[]) => {
    let next = 0;
    return () => indexes[Math.min(next++, indexes.length - 1)]!;
  };

  test('an index another passport holds is drawn again, not answered with an error', async () => {
    const first = await ensureStatusEntry(db.orm.em.fork(), fresh(passports[0]!), drawing(5));
    assert.deepEqual(first, { list: 1, index: 5 });
    const second = await ensureStatusEntry(db.orm.em.fork(), fresh(passports[1]!), drawing(5, 5, 9));
    assert.deepEqual(second, { list: 1, index: 9 });
  });

  test('two first credentials of one passport at once agree on one entry', async () => {
    const id = passports[2]!;
    const [a, b] = await Promise.all([
      ensureStatusEntry(db.orm.em.fork(), fresh(id), drawing(17)),
      ensureStatusEntry(db.orm.em.fork(), fresh(id), drawing(23)),
    ]);
    assert.deepEqual(a, b);
    const [stored] = await db.orm.em
      .fork()
      .execute<{ status_list_index: number }[]>('select status_list_index from passports where id = ?', [id]);
    assert.equal(stored!.status_list_index, a.index);
  });
});
