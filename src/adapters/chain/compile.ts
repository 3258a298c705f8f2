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

/** One of our own contracts: compiled from contracts/<name>.sol into a committed artifacts/<name>.json. */
export interface ContractSource {
  contractName: string;
  /** `contracts/<name>.sol`, as solc names it. */
  sourceUnit: string;
  sourcePath: string;
  artifactPath: string;
}

export function ownContract(contractName: string): ContractSource {
  const sourceUnit = `contracts/${contractName}.sol`;
  return {
    contractName,
    sourceUnit,
    sourcePath: join(CHAIN_DIR, sourceUnit),
    artifactPath: join(CHAIN_DIR, 'artifacts', `${contractName}.json`),
  };
}

export const PASSPORT_CONTRACT = ownContract('DigitalProductPassport');
/** The gas sponsor of the smart accounts (docs/smart-accounts.md). */
export const PAYMASTER_CONTRACT = ownContract('SponsorPaymaster');
export const OWN_CONTRACTS = [PASSPORT_CONTRACT, PAYMASTER_CONTRACT];

export const PASSPORT_CONTRACT_NAME = PASSPORT_CONTRACT.contractName;
export const PASSPORT_SOURCE_UNIT = PASSPORT_CONTRACT.sourceUnit;
export const PASSPORT_SOURCE_PATH = PASSPORT_CONTRACT.sourcePath;
/** Committed to the repository so `npm start` needs no compilation; a test proves it is current. */
export const PASSPORT_ARTIFACT_PATH = PASSPORT_CONTRACT.artifactPath;

export interface ContractArtifact {
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
export type PassportArtifact = ContractArtifact;

export function compileContract(contract: ContractSource): ContractArtifact {
  const output = compileSolidity({ [contract.sourceUnit]: readFileSync(contract.sourcePath, 'utf8') });
  const compiled = output.contracts[`${contract.sourceUnit}:${contract.contractName}`];
  if (!compiled) throw new Error(`solc produced no ${contract.contractName} contract`);
  return {
    contractName: contract.contractName,
    sourceUnit: contract.sourceUnit,
    ...compiled,
    compiler: { version: compilerVersion(), settings: COMPILER_SETTINGS },
    sourceHash: sourceFingerprint(output.sources),
    sourceUnits: Object.keys(output.sources).sort(),
  };
}

export function compilePassport(): PassportArtifact {
  return compileContract(PASSPORT_CONTRACT);
}

export function readPassportArtifact(path = PASSPORT_ARTIFACT_PATH): ContractArtifact | undefined {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as ContractArtifact;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** Writes atomically (temp file + rename), so parallel processes never read half a file. */
export function writePassportArtifact(artifact: ContractArtifact, path = PASSPORT_ARTIFACT_PATH): void {
  mkdirSync(dirname(path), { recursive: true });
  const temp = `${path}.${process.pid}.tmp`;
  writeFileSync(temp, `${JSON.stringify(artifact, null, 2)}\n`);
  renameSync(temp, path);
}

/** The fingerprint the artifact would have if compiled now from the current sources and compiler. */
export function currentSourceHash(artifact: Pick<ContractArtifact, 'sourceUnits'>): string | undefined {
  const local = Object.fromEntries(
    OWN_CONTRACTS.map((contract) => [contract.sourceUnit, contract.sourcePath]),
  );
  try {
    return sourceFingerprint(readSourceUnits(artifact.sourceUnits, local));
  } catch {
    return undefined; // a source unit vanished: stale
  }
}

export function isPassportArtifactCurrent(artifact: ContractArtifact): boolean {
  return artifact.sourceHash === currentSourceHash(artifact);
}

const cache = new Map<string, ContractArtifact>();

/**
 * The compiled contract: the artifact file if it matches the sources and compiler, otherwise a
 * fresh compilation (written back when the directory is writable).
 */
export function loadContractArtifact(
  contract: ContractSource,
  options: { path?: string } = {},
): ContractArtifact {
  const path = options.path ?? contract.artifactPath;
  const shared = path === contract.artifactPath;
  const cached = shared ? cache.get(path) : undefined;
  if (cached) return cached;
  const existing = readPassportArtifact(path);
  let artifact: ContractArtifact;
  if (existing && isPassportArtifactCurrent(existing)) {
    artifact = existing;
  } else {
    artifact = compileContract(contract);
    try {
      writePassportArtifact(artifact, path);
    } catch {
      // read-only deployment: use the in-memory build
    }
  }
  if (shared) cache.set(path, artifact);
  return artifact;
}

export function loadPassportArtifact(options: { path?: string } = {}): PassportArtifact {
  return loadContractArtifact(PASSPORT_CONTRACT, options);
}
