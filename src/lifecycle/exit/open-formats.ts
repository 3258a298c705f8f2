import type { EntityManager } from '@mikro-orm/postgresql';
import { shellsAndSubmodels } from '../../passport/aas/aas-serialization.ts';
import { encodeIdentifier } from '../../passport/aas/identifiers.ts';
import { shellId } from '../../passport/aas/shell.ts';
import type { LevelPassport } from '../../passport/levels/levels.ts';
import { representLevel } from '../../passport/views/level-representation.ts';
import type {
  PassportAnswer,
  PassportFormat,
  RepresentationDeps,
  RequestSide,
} from '../../passport/views/passport-request.ts';
import { representPassport } from '../../passport/views/representation.ts';
import type { Environment } from '../../platform/config/config.ts';
import { DomainError } from '../../platform/errors.ts';
import type { BundleWriter } from './bundle-writer.ts';

/** An item passport as the open-format pass reads it. */
export interface ItemRow {
  id: number;
  environment: Environment;
  gtin: string;
  token_id: string;
}

/**
 * The resolver's own answers, rendered without a request: only the public representations are asked for
 * (public, linkset), which neither sign nor read a caller. Signed credentials are written as stored, never
 * rebuilt (credential-files.ts).
 */
export interface OpenFormatDeps {
  em: EntityManager;
  publicBaseUrl: string;
}

const SIDE: RequestSide = {
  found: () => {},
  apiKeyCaller: () => Promise.reject(new Error('an export asks for public representations only')),
  caller: () => Promise.reject(new Error('an export asks for public representations only')),
  variesByCredential: () => {},
};

function viewDeps(deps: OpenFormatDeps): RepresentationDeps {
  // public and linkset read neither the issuer nor the tap keys (format-document.ts, representation.ts).
  return {
    orm: { em: deps.em },
    publicBaseUrl: deps.publicBaseUrl,
    credentials: undefined as never,
    secretBox: undefined as never,
    verdictKey: Buffer.alloc(0),
  };
}

/**
 * `<format>.json` as answered, or — a representation the resolver refuses for this passport — its problem as
 * `<format>.problem.json` (the export goes on).
 */
async function writeAnswer(
  writer: BundleWriter,
  base: string,
  format: string,
  content: Promise<string>,
): Promise<void> {
  try {
    await writer.write(`${base}/${format}.json`, await content);
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    await writer.writeJson(`${base}/${format}.problem.json`, {
      format,
      code: error.code,
      detail: error.message,
    });
  }
}

function body(answer: PassportAnswer): string {
  if (answer.kind !== 'document') throw new Error(`expected a document, got ${answer.kind}`);
  return `${JSON.stringify(JSON.parse(answer.body), null, 2)}\n`;
}

export function itemDirectory(item: Pick<ItemRow, 'environment' | 'gtin' | 'token_id'>): string {
  return `passports/${item.environment}/${item.gtin}/${item.token_id}`;
}

/** public.json and linkset.json (GS1 linkset) as the resolver serves them, and aas.json (AAS environment). */
export async function writeItemViews(
  writer: BundleWriter,
  deps: OpenFormatDeps,
  item: ItemRow,
): Promise<void> {
  const dir = itemDirectory(item);
  const key = { gtin: item.gtin, serial: item.token_id };
  for (const format of ['public', 'linkset'] as const satisfies readonly PassportFormat[]) {
    const asked = representPassport(
      viewDeps(deps),
      { environment: item.environment, item: key, ask: { kind: 'format', format } },
      SIDE,
    );
    await writeAnswer(writer, dir, format, asked.then(body));
  }
  const scope = { em: deps.em.fork(), environment: item.environment, publicBaseUrl: deps.publicBaseUrl };
  const id = encodeIdentifier(shellId(deps.publicBaseUrl, item.environment, item.token_id));
  const environment = shellsAndSubmodels(scope, [id], []).then(
    ({ shells, submodels }) =>
      `${JSON.stringify({ assetAdministrationShells: shells, submodels, conceptDescriptions: [] }, null, 2)}\n`,
  );
  await writeAnswer(writer, dir, 'aas', environment);
}

export function levelDirectory(level: Pick<LevelPassport, 'environment' | 'gtin' | 'lot'>): string {
  return `levels/${level.environment}/${level.gtin}${level.lot === null ? '' : `/${level.lot}`}`;
}

/** A model or batch passport: public.json and linkset.json as the resolver serves them. */
export async function writeLevelViews(
  writer: BundleWriter,
  deps: OpenFormatDeps,
  level: LevelPassport,
): Promise<void> {
  for (const format of ['public', 'linkset'] as const) {
    const asked = representLevel(
      viewDeps(deps),
      { environment: level.environment, level, ask: { kind: 'format', format } },
      SIDE,
    );
    await writeAnswer(writer, levelDirectory(level), format, asked.then(body));
  }
}
