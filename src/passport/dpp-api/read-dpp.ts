import type { EntityManager } from '@mikro-orm/postgresql';
import { DomainError } from '../../platform/errors.ts';
import { versionSubject } from '../../standards/anchors/version-subject.ts';
import { contentSpecifications } from '../content/content-specification.ts';
import type { Role } from '../content/disclosure.ts';
import { sourcesOf } from '../content/merge-layers.ts';
import { discloseContent } from '../disclosure/disclose-content.ts';
import { inheritedSections, mergeItemDocument } from '../levels/inherit.ts';
import {
  type LevelVersion,
  latestLevelVersion,
  levelVersionByNumber,
  levelVersionSummaries,
} from '../levels/level-versions.ts';
import type { LevelPassport } from '../levels/levels.ts';
import { publicPart, RESTRICTED_SECTIONS } from '../record/passport-document.ts';
import { dppIdOf } from '../record/passport-header.ts';
import {
  currentPassportVersion,
  type PassportVersion,
  passportVersionAt,
  passportVersionByNumber,
  passportVersionSummaries,
} from '../record/passport-versions.ts';
import { ElementPathError, parseElementPath, selectElement } from './element-path.ts';
import type { DppRef } from './find-dpp.ts';
import { dataElement, fullRepresentation } from './full-representation.ts';

/** EN 18222 serializations: compressed (the default) or full (expanded data elements). */
export type Representation = 'compressed' | 'full';

/**
 * Who reads: the owning company's credential sees every content section; anyone else the public ones, with
 * each product-group section (keyed by its content specification id) cut to the fields `roles` may read
 * (docs/disclosure.md). `authenticated`: a valid credential was presented (of another company when not
 * `owner`).
 */
export interface Reader {
  owner: boolean;
  authenticated: boolean;
  roles: ReadonlySet<Role>;
}

function visible(document: Record<string, unknown>, reader: Reader): Record<string, unknown> {
  if (reader.owner) return document;
  const cut = publicPart(document);
  for (const [key, value] of Object.entries(document)) {
    const specification = contentSpecifications.get(key);
    if (!specification || typeof value !== 'object' || value === null || Array.isArray(value)) continue;
    cut[key] = discloseContent(value as Record<string, unknown>, specification.policy, reader.roles);
  }
  return cut;
}

function render(document: Record<string, unknown>, representation: Representation): Record<string, unknown> {
  return representation === 'full' ? fullRepresentation(document) : document;
}

async function current(em: EntityManager, ref: DppRef, publicBaseUrl: string): Promise<PassportVersion> {
  const version = await currentPassportVersion(em, ref.passportId, publicBaseUrl);
  if (!version)
    throw new DomainError('not_found', 'dpp_not_found', `No passport ${dppIdOf(ref.serviceUid)}.`);
  return version;
}

/**
 * The current document of an item with its model's and batch's data merged in (docs/granularity.md), as the
 * reader may see it; `contentSources` (when the item has a model or batch) names, for each product-group leaf
 * still shown, the passport it comes from.
 */
async function currentView(
  em: EntityManager,
  ref: DppRef,
  publicBaseUrl: string,
  reader: Reader,
): Promise<{ stored: Record<string, unknown>; shown: Record<string, unknown> }> {
  const version = await current(em, ref, publicBaseUrl);
  const { document, sources } = mergeItemDocument(
    version.content,
    await inheritedSections(em, ref.passportId),
  );
  const shown = visible(document, reader);
  return {
    stored: document,
    shown: sources ? { ...shown, contentSources: sourcesOf(shown, sources) } : shown,
  };
}

/** ReadDPPById / ReadDPPByProductId: the passport's current document as the reader may see it. */
export async function readDpp(
  em: EntityManager,
  ref: DppRef,
  publicBaseUrl: string,
  reader: Reader,
  representation: Representation,
): Promise<Record<string, unknown>> {
  return render((await currentView(em, ref, publicBaseUrl, reader)).shown, representation);
}

/** ReadDPPById of a model or batch passport: its latest version as the reader may see it. */
export async function readLevelDpp(
  em: EntityManager,
  level: LevelPassport,
  reader: Reader,
  representation: Representation,
): Promise<Record<string, unknown>> {
  const version = await latestLevelVersion(em, level.id);
  if (!version)
    throw new DomainError('not_found', 'dpp_not_found', `No passport ${dppIdOf(level.serviceUid)}.`);
  return render(visible(version.content, reader), representation);
}

/**
 * ReadDataElement: one node of the current compressed document by its RFC 9535 normalized path. A node inside
 * a restricted section needs the owner's credential: 401 without one, 403 with another company's.
 */
export async function readDppElement(
  em: EntityManager,
  ref: DppRef,
  publicBaseUrl: string,
  reader: Reader,
  elementPath: string,
  representation: Representation,
): Promise<unknown> {
  return elementOf(() => currentView(em, ref, publicBaseUrl, reader), reader, elementPath, representation);
}

/** ReadDataElement of a model or batch passport: one node of its latest version. */
export async function readLevelElement(
  em: EntityManager,
  level: LevelPassport,
  reader: Reader,
  elementPath: string,
  representation: Representation,
): Promise<unknown> {
  const load = async () => {
    const version = await latestLevelVersion(em, level.id);
    if (!version)
      throw new DomainError('not_found', 'dpp_not_found', `No passport ${dppIdOf(level.serviceUid)}.`);
    return { stored: version.content, shown: visible(version.content, reader) };
  };
  return elementOf(load, reader, elementPath, representation);
}

/** The node at `elementPath` of the document `load` gives (what is stored, and what the reader is shown). */
async function elementOf(
  load: () => Promise<{ stored: Record<string, unknown>; shown: Record<string, unknown> }>,
  reader: Reader,
  elementPath: string,
  representation: Representation,
): Promise<unknown> {
  let segments: ReturnType<typeof parseElementPath>;
  try {
    segments = parseElementPath(elementPath);
  } catch (error) {
    if (!(error instanceof ElementPathError)) throw error;
    throw new DomainError(
      'invalid',
      'invalid_element_path',
      `The element path is no RFC 9535 normalized path ($['name'][0]…): ${error.message}.`,
    );
  }
  const first = segments[0];
  if (!reader.owner && first && 'name' in first && RESTRICTED_SECTIONS.includes(first.name)) {
    throw reader.authenticated
      ? new DomainError(
          'forbidden',
          'not_passport_owner',
          'This section is for the company that owns the passport.',
        )
      : new DomainError(
          'unauthenticated',
          'credential_required',
          'This section is not public: send the owning company’s API key (Authorization: Bearer …).',
        );
  }
  const view = await load();
  const selected = selectElement(view.shown, segments);
  if (!selected && !reader.owner && selectElement(view.stored, segments)) {
    // A field of a product-group section the caller's roles may not read (docs/disclosure.md).
    throw reader.authenticated
      ? new DomainError(
          'forbidden',
          'not_disclosed',
          'Your roles for this passport do not include one that may read this element.',
        )
      : new DomainError(
          'unauthenticated',
          'credential_required',
          'This element is not public: send a credential of a company holding a role that reads it.',
        );
  }
  if (!selected) throw new DomainError('not_found', 'element_not_found', `No element at ${elementPath}.`);
  if (representation === 'compressed') return selected.value;
  const last = segments[segments.length - 1];
  if (last === undefined) return fullRepresentation(selected.value as Record<string, unknown>);
  const element = dataElement('name' in last ? last.name : String(last.index), selected.value);
  if (!element)
    throw new DomainError('not_found', 'element_not_found', `The element at ${elementPath} has no value.`);
  return element;
}

/** A version's summary: its hashes (the full content's only for the owner) and time. */
function summary(version: Omit<PassportVersion, 'content'>, reader: Reader) {
  return {
    number: version.number,
    createdAt: version.createdAt.toISOString(),
    ...(reader.owner ? { sha256: version.sha256 } : {}),
    publicSha256: version.publicSha256,
  };
}

/** The passport's versions, oldest first, a page at a time (the current content recorded first if it is new). */
export async function listDppVersions(
  em: EntityManager,
  ref: DppRef,
  publicBaseUrl: string,
  reader: Reader,
  page: { limit: number; after?: number | undefined },
) {
  await current(em, ref, publicBaseUrl);
  const { items, nextCursor } = await passportVersionSummaries(em, ref.passportId, page);
  return {
    digitalProductPassportId: dppIdOf(ref.serviceUid),
    items: items.map((item) => summary(item, reader)),
    nextCursor,
  };
}

function versionDocument(version: PassportVersion, reader: Reader, representation: Representation) {
  return { ...summary(version, reader), dpp: render(visible(version.content, reader), representation) };
}

/** One version by its number, as it was recorded. */
export async function readDppVersion(
  em: EntityManager,
  ref: DppRef,
  number: number,
  reader: Reader,
  representation: Representation,
) {
  const version = await passportVersionByNumber(em, ref.passportId, number);
  if (!version) {
    throw new DomainError(
      'not_found',
      'version_not_found',
      `Passport ${dppIdOf(ref.serviceUid)} has no version ${number}.`,
    );
  }
  return versionDocument(version, reader, representation);
}

/** ReadDPPVersionByIdAndDate: the version that was current at `at`. */
export async function readDppAt(
  em: EntityManager,
  ref: DppRef,
  publicBaseUrl: string,
  at: Date,
  reader: Reader,
  representation: Representation,
) {
  await current(em, ref, publicBaseUrl);
  const version = await passportVersionAt(em, ref.passportId, at);
  if (!version) {
    throw new DomainError(
      'not_found',
      'version_not_found',
      `Passport ${dppIdOf(ref.serviceUid)} had no version at ${at.toISOString()}.`,
    );
  }
  return versionDocument(version, reader, representation);
}

/**
 * A level version's summary: as an item's, whether its hashes are anchored yet and, once they are, where
 * (docs/granularity.md "Versions and anchoring").
 */
function levelSummary(level: LevelPassport, version: Omit<LevelVersion, 'content'>, reader: Reader) {
  const { anchor } = version;
  return {
    ...summary(version, reader),
    anchorStatus: version.anchorStatus,
    ...(anchor && {
      anchor: {
        subject: versionSubject(dppIdOf(level.serviceUid), version.number),
        transactionHash: anchor.transactionHash,
        blockNumber: anchor.blockNumber,
        contractAddress: anchor.contractAddress,
        anchoredAt: anchor.anchoredAt.toISOString(),
      },
    }),
  };
}

/** The versions of a model or batch passport, oldest first, a page at a time. */
export async function listLevelVersions(
  em: EntityManager,
  level: LevelPassport,
  reader: Reader,
  page: { limit: number; after?: number | undefined },
) {
  const { items, nextCursor } = await levelVersionSummaries(em, level.id, page);
  return {
    digitalProductPassportId: dppIdOf(level.serviceUid),
    items: items.map((item) => levelSummary(level, item, reader)),
    nextCursor,
  };
}

/**
 * One version of a model or batch passport, as it was recorded: by its number, or the one current at a time
 * (ReadDPPVersionByIdAndDate).
 */
export async function readLevelVersion(
  em: EntityManager,
  level: LevelPassport,
  which: number | Date,
  reader: Reader,
  representation: Representation,
) {
  const version = await levelVersionByNumber(em, level.id, which);
  if (!version) {
    const dppId = dppIdOf(level.serviceUid);
    throw new DomainError(
      'not_found',
      'version_not_found',
      typeof which === 'number'
        ? `Passport ${dppId} has no version ${which}.`
        : `Passport ${dppId} had no version at ${which.toISOString()}.`,
    );
  }
  return {
    ...levelSummary(level, version, reader),
    dpp: render(visible(version.content, reader), representation),
  };
}
