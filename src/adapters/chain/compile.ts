import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  COMPILER_SETTINGS,
  compilerVersion,
  compileSolidity,
  readSourceUnits,
  sourceFingerprint,
} from './solidity-compiler.ts';

const CHAIN_DIR = dirname(fileURLToPath(import.meta.url));

export const PASSPORT_CONTRACT_NAME = 'DigitalProductPassport';
export const PASSPORT_SOURCE_UNIT = 'contracts/DigitalProductPassport.sol';
export const PASSPORT_SOURCE_PATH = join(CHAIN_DIR, PASSPORT_SOURCE_UNIT);
/** Committed to the repository so `npm start` needs no compilation; a test proves it is current. */
export const PASSPORT_ARTIFACT_PATH = join(CHAIN_DIR, 'artifacts', `${PASSPORT_CONTRACT_NAME}.json`);

export interface PassportArtifact {
  contractName: string;
  sourceUnit: string;
  abi: unknown[];
  bytecode: string;
  deployedBytecode: string;
  compiler: { version: string; settings: typeof COMPILER_SETTINGS };
  /** sha256 over compiler version, settings and the content of every source unit (see sourceUnits). */
  sourceHash: string;
  /** The contract and every file it imports, as solc names them. */
  sourceUnits: string[];
}

const LOCAL_UNITS = { [PASSPORT_SOURCE_UNIT]: PASSPORT_SOURCE_PATH };

export function compilePassport(): PassportArtifact {
  const output = compileSolidity({ [PASSPORT_SOURCE_UNIT]: readFileSync(PASSPORT_SOURCE_PATH, 'utf8') });
  const compiled = output.contracts[`${PASSPORT_SOURCE_UNIT}:${PASSPORT_CONTRACT_NAME}`];
  if (!compiled) throw new Error(`solc produced no ${PASSPORT_CONTRACT_NAME} contract`);
  return {
    contractName: PASSPORT_CONTRACT_NAME,
    sourceUnit: PASSPORT_SOURCE_UNIT,
    ...compiled,
    compiler: { version: compilerVersion(), settings: COMPILER_SETTINGS },
    sourceHash: sourceFingerprint(output.sources),
    sourceUnits: Object.keys(output.sources).sort(),
  };
}

export function readPassportArtifact(path = PASSPORT_ARTIFACT_PATH): PassportArtifact | undefined {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as PassportArtifact;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** Writes atomically (temp file + rename), so parallel processes never read half a file. */
export function writePassportArtifact(artifact: PassportArtifact, path = PASSPORT_ARTIFACT_PATH): void {
  mkdirSync(dirname(path), { recursive: true });
  const temp = `${path}.${process.pid}.tmp`;
  writeFileSync(temp, `${JSON.stringify(artifact, null, 2)}\n`);
  renameSync(temp, path);
}

/** The fingerprint the artifact would have if compiled now from the current sources and compiler. */
export function currentSourceHash(artifact: Pick<PassportArtifact, 'sourceUnits'>): string | undefined {
  try {
    return sourceFingerprint(readSourceUnits(artifact.sourceUnits, LOCAL_UNITS));
  } catch {
    return undefined; // a source unit vanished: stale
  }
}

export function isPassportArtifactCurrent(artifact: PassportArtifact): boolean {
  return artifact.sourceHash === currentSourceHash(artifact);
}

let cached: PassportArtifact | undefined;

/**
 * The compiled contract: the artifact file if it matches the sources and compiler, otherwise a
 * fresh compilation (written back when the directory is writable).
 */
export function loadPassportArtifact(options: { path?: string } = {}): PassportArtifact {
  const path = options.path ?? PASSPORT_ARTIFACT_PATH;
  if (cached && path === PASSPORT_ARTIFACT_PATH) return cached;
  const existing = readPassportArtifact(path);
  let artifact: PassportArtifact;
  if (existing && isPassportArtifactCurrent(existing)) {
    artifact = existing;
  } else {
    artifact = compilePassport();
    try {
      writePassportArtifact(artifact, path);
    } catch {
      // read-only deployment: use the in-memory build
    }
  }
  if (path === PASSPORT_ARTIFACT_PATH) cached = artifact;
  return artifact;
}
