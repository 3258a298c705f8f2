import assert from 'node:assert/strict';
import pg from 'pg';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { CoalescedReads } from '../../src/platform/db/coalesced-reads.ts';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';

/**
 * Reads of one passport that wait for a connection together share one statement, and a read never gets an
 * answer older than the writes committed before it was asked (src/platform/db/coalesced-reads.ts).
 */
describe('coalesced reads', () => {
  let db: TestDatabase;
  let pool: pg.Pool;
  let writer: pg.Client;
  const read = { name: 'coalesced-read', text: 'select v, txid_current() as tx from coalesced where k = $1' };

  beforeAll(async () => {
    db = await createTestDatabase();
    pool = new pg.Pool({ connectionString: db.url, max: 1 });
    writer = new pg.Client({ connectionString: db.url });
    await writer.connect();
    await writer.query('create table coalesced (k text primary key, v int not null)');
    await writer.query(`insert into coalesced values ('a', 1), ('b', 1)`);
  });
  afterAll(async () => {
    await writer?.end();
    await pool?.end();
    await db?.drop();
  });

  test('reads of one key waiting for a connection share one statement; other keys do not', async () => {
    const reads = new CoalescedReads();
    const held = await pool.connect();
    const waiting = [
      ...Array.from({ length: 5 }, () => reads.read(pool, 'a', { ...read, values: ['a'] })),
      reads.read(pool, 'b', { ...read, values: ['b'] }),
    ];
    held.release();
    const answers = await Promise.all(waiting);
    const statements = new Set(answers.slice(0, 5).map((rows) => rows[0]!.tx));
    assert.equal(statements.size, 1, 'the five reads of a ran one statement');
    assert.notEqual(answers[5]![0]!.tx, answers[0]![0]!.tx, 'b has its own');
  });

  test('a read asked after a write committed sees it, even while an older read of the key is running', async () => {
    const reads = new CoalescedReads();
    const slow = { name: 'coalesced-slow', text: 'select v from coalesced, pg_sleep(0.3) where k = $1' };
    // The older read has its connection and its snapshot: it must not be joined by reads asked later.
    const older = reads.read(pool, 'a', { ...slow, values: ['a'] });
    await new Promise((resolve) => setTimeout(resolve, 100));
    await writer.query(`update coalesced set v = 2 where k = 'a'`);
    const later = reads.read(pool, 'a', { ...slow, values: ['a'] });
    assert.equal((await older)[0]!.v, 1);
    assert.equal((await later)[0]!.v, 2);
  });

  test('a failed read fails every request that shared it, and the next read runs afresh', async () => {
    const reads = new CoalescedReads();
    const broken = { name: 'coalesced-broken', text: 'select 1 / (v - v) from coalesced where k = $1' };
    const held = await pool.connect();
    const shared = [1, 2].map(() => reads.read(pool, 'a', { ...broken, values: ['a'] }));
    held.release();
    for (const result of await Promise.allSettled(shared)) assert.equal(result.status, 'rejected');
    assert.equal((await reads.read(pool, 'a', { ...read, values: ['a'] }))[0]!.v, 2);
  });
});
