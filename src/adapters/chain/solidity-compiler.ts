import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import solc from 'solc';

const require = createRequire(import.meta.url);

/** Fixed compiler settings: they are part of the artifact fingerprint. */
export const COMPILER_SETTINGS = {
  optimizer: { enabled: true, runs: 200 },
  // cancun rather than solc's default (prague): runs on anvil and on every mainstream EVM chain today.
  evmVersion: 'cancun',
} as const;

export interface CompiledContract {
  abi: unknown[];
  bytecode: string;
  deployedBytecode: string;
}

export interface CompileOutput {
  /** Keyed by `sourceUnit:ContractName`. */
  contracts: Record<string, CompiledContract>;
  /** Every source unit the compiler read (given ones and resolved imports) with its content. */
  sources: Record<string, string>;
}

export class SolidityCompileError extends Error {
  constructor(messages: string[]) {
    super(`Solidity compilation failed:\n${messages.join('\n')}`);
    this.name = 'SolidityCompileError';
  }
}

export function compilerVersion(): string {
  return solc.version() as string;
}

/** Resolves `@scope/pkg/path.sol` or `pkg/path.sol` to a file inside that npm package. */
function resolvePackageImport(importPath: string): string {
  const parts = importPath.split('/');
  const packageName = importPath.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] ?? '');
  const rest = parts.slice(importPath.startsWith('@') ? 2 : 1).join('/');
  const packageDir = dirname(require.resolve(`${packageName}/package.json`));
  return join(packageDir, rest);
}

interface SolcOutput {
  errors?: { severity: string; formattedMessage: string }[];
  contracts?: Record<
    string,
    Record<
      string,
      { abi: unknown[]; evm: { bytecode: { object: string }; deployedBytecode: { object: string } } }
    >
  >;
}

/**
 * Compiles Solidity sources (unit name → content) with solcjs. Imports of npm packages
 * (e.g. `@openzeppelin/contracts/...`) are read from node_modules.
 */
export function compileSolidity(sources: Record<string, string>): CompileOutput {
  const read: Record<string, string> = { ...sources };
  const input = {
    language: 'Solidity',
    sources: Object.fromEntries(Object.entries(sources).map(([name, content]) => [name, { content }])),
    settings: {
      ...COMPILER_SETTINGS,
      outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object', 'evm.deployedBytecode.object'] } },
    },
  };
  const findImports = (path: string) => {
    try {
      const content = readFileSync(resolvePackageImport(path), 'utf8');
      read[path] = content;
      return { contents: content };
    } catch (error) {
      return { error: `cannot resolve import "${path}": ${(error as Error).message}` };
    }
  };
  const output = JSON.parse(solc.compile(JSON.stringify(input), { import: findImports })) as SolcOutput;
  const errors = (output.errors ?? []).filter((e) => e.severity === 'error');
  if (errors.length > 0) throw new SolidityCompileError(errors.map((e) => e.formattedMessage));

  const contracts: Record<string, CompiledContract> = {};
  for (const [unit, byName] of Object.entries(output.contracts ?? {})) {
    for (const [name, compiled] of Object.entries(byName)) {
      contracts[`${unit}:${name}`] = {
        abi: compiled.abi,
        bytecode: `0x${compiled.evm.bytecode.object}`,
        deployedBytecode: `0x${compiled.evm.deployedBytecode.object}`,
      };
    }
  }
  return { contracts, sources: read };
}

/** Reads the current content of source units (given ones from `localFiles`, the rest from packages). */
export function readSourceUnits(units: string[], localFiles: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    units.map((unit) => {
      const local = localFiles[unit];
      return [unit, readFileSync(local ?? resolvePackageImport(unit), 'utf8')];
    }),
  );
}

/** Identifies a build: compiler version, settings and the content of every source unit. */
export function sourceFingerprint(sources: Record<string, string>): string {
  const units = Object.keys(sources)
    .sort()
    .map((name) => [
      name,
      createHash('sha256')
        .update(sources[name] ?? '')
        .digest('hex'),
    ]);
  return createHash('sha256')
    .update(JSON.stringify({ compiler: compilerVersion(), settings: COMPILER_SETTINGS, units }))
    .digest('hex');
}
