import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, test } from 'vitest';
import {
  compilePassport,
  currentSourceHash,
  isPassportArtifactCurrent,
  loadPassportArtifact,
  PASSPORT_SOURCE_UNIT,
  readPassportArtifact,
  writePassportArtifact,
} from '../../src/adapters/chain/compile.ts';
import { compilerVersion } from '../../src/adapters/chain/solidity-compiler.ts';

const scratch = mkdtempSync(join(tmpdir(), 'dpp-artifact-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('committed contract artifact', () => {
  const committed = readPassportArtifact();

  test('exists and matches the current sources and compiler (else: npm run build:contracts)', () => {
    assert.ok(committed, 'src/adapters/chain/artifacts/DigitalProductPassport.json is missing');
    assert.equal(committed.compiler.version, compilerVersion());
    assert.ok(committed.sourceUnits.includes(PASSPORT_SOURCE_UNIT));
    assert.ok(committed.sourceUnits.some((unit) => unit.startsWith('@openzeppelin/contracts/')));
    assert.equal(committed.sourceHash, currentSourceHash(committed), 'artifact is stale');
  });

  test('is byte-identical to a fresh compilation', () => {
    const fresh = compilePassport();
    assert.equal(fresh.sourceHash, committed?.sourceHash);
    assert.equal(fresh.bytecode, committed?.bytecode);
    assert.equal(fresh.deployedBytecode, committed?.deployedBytecode);
    assert.deepEqual(fresh.abi, committed?.abi);
  });

  test('a changed source file makes it stale', () => {
    assert.ok(committed);
    const contract = committed.sourceUnits.indexOf(PASSPORT_SOURCE_UNIT);
    const renamed = { ...committed, sourceUnits: committed.sourceUnits.toSpliced(contract, 1) };
    assert.notEqual(currentSourceHash(renamed), committed.sourceHash);
    const vanished = {
      ...committed,
      sourceUnits: [...committed.sourceUnits, '@openzeppelin/contracts/Nope.sol'],
    };
    assert.equal(currentSourceHash(vanished), undefined);
    assert.equal(isPassportArtifactCurrent({ ...committed, sourceHash: 'f'.repeat(64) }), false);
  });
});

describe('loadPassportArtifact', () => {
  test('recompiles and rewrites a stale artifact file', () => {
    const path = join(scratch, 'stale.json');
    const committed = readPassportArtifact()!;
    writePassportArtifact({ ...committed, sourceHash: '0'.repeat(64), bytecode: '0x00' }, path);
    const loaded = loadPassportArtifact({ path });
    assert.equal(loaded.sourceHash, committed.sourceHash);
    assert.equal(loaded.bytecode, committed.bytecode);
    assert.equal(readPassportArtifact(path)?.bytecode, committed.bytecode);
  });

  test('compiles when the artifact file is missing, and reuses a current one as is', () => {
    const path = join(scratch, 'missing.json');
    const loaded = loadPassportArtifact({ path });
    assert.equal(loaded.sourceHash, readPassportArtifact()?.sourceHash);
    const before = readFileSync(path, 'utf8');
    loadPassportArtifact({ path });
    assert.equal(readFileSync(path, 'utf8'), before);
  });

  test('the ABI carries every custom error the service decodes', () => {
    const errors = (loadPassportArtifact().abi as { type: string; name?: string }[])
      .filter((item) => item.type === 'error')
      .map((item) => item.name);
    for (const name of [
      'ChipAlreadyMinted',
      'AlreadyRecycled',
      'NotAuthorizedClaimant',
      'NoClaimAuthorized',
    ]) {
      assert.ok(errors.includes(name), name);
    }
  });
});
