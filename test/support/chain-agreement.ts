import assert from 'node:assert/strict';
import { parseIpfsUrl } from '../../src/standards/ipfs/json.ts';
import type { TestStack } from './stack.ts';

/**
 * One truth for a token: the chip's passport is recorded, the token on chain is the recorded one, its URI
 * is the recorded metadata URL, and the document there is the recorded metadata.
 */
export async function assertChainAgreesWithDatabase(stack: TestStack, chipUid: string): Promise<string> {
  const [row] = await stack.api.db.orm.em
    .fork()
    .execute<{ token_id: string; metadata_url: string; metadata_cache: unknown }[]>(
      'select token_id, metadata_url, metadata_cache from passports where chip_uid = ?',
      [chipUid],
    );
  assert.ok(row, `the passport of chip ${chipUid} is recorded`);
  const chain = stack.chain.chain;
  assert.equal(
    await chain.reader.findTokenByChip(chipUid),
    row.token_id,
    'the token on chain is the recorded one',
  );
  assert.equal(
    await chain.reader.tokenURI(row.token_id),
    row.metadata_url,
    'the token URI is the recorded one',
  );
  const stored = await stack.deps.contentStore.get(parseIpfsUrl(row.metadata_url)!);
  assert.ok(stored, 'the metadata document is on IPFS');
  assert.deepEqual(JSON.parse(stored.bytes.toString('utf8')), row.metadata_cache);
  return row.token_id;
}
