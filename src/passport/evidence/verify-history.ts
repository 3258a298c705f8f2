import { keccak256, toUtf8Bytes } from 'ethers';
import { canonicalJson } from '../../standards/ipfs/json.ts';
import type { EvidenceBundle, EvidenceEvent, EvidenceVersion } from './bundle.ts';
import { type Check, fail, pass } from './checks.ts';
import { canonicalSha256 } from './manifest.ts';

// The service's own content sections (src/passport/record/passport-header.ts): not product-group data.
const PUBLIC_SECTION = 'urn:dpp-service:content-specification:product:1.0';
const OPERATOR_SECTION = 'urn:dpp-service:content-specification:product-operator:1.0';
const PRODUCT_DATA_UPDATED = 'PRODUCT_DATA_UPDATED';

/** Each version's document against its hash, the numbering without gaps, the passport it names. */
export function verifyVersions(bundle: EvidenceBundle): Check[] {
  const checks = bundle.versions.map((version, i) => {
    const name = `version ${version.number} hash`;
    if (version.number !== i + 1) return fail(name, `found as the ${i + 1}th version: a version is missing`);
    if (version.document.digitalProductPassportId !== bundle.passport.dppId)
      return fail(name, `the document names ${String(version.document.digitalProductPassportId)}`);
    const actual = canonicalSha256(version.document);
    return actual === version.sha256
      ? pass(name, `SHA-256 ${version.sha256}`)
      : fail(name, `the document hashes to ${actual}, the bundle says ${version.sha256}`);
  });
  return checks.length > 0 ? checks : [fail('versions', 'the bundle has no version')];
}

/** keccak256 of the event's canonical JSON: what logEvent put on chain (src/passport/timeline/event-view.ts). */
export function payloadHash(event: EvidenceEvent): string {
  return keccak256(toUtf8Bytes(canonicalJson(event.payload)));
}

/** Each event's payload against its data hash (events the chain records itself carry none). */
export function verifyEventHashes(bundle: EvidenceBundle): Check[] {
  return bundle.events.map((event) => {
    const name = `event ${String(event.payload.id)} (${String(event.payload.action)}) hash`;
    if (String(event.payload.tokenId) !== bundle.passport.tokenId)
      return fail(name, `the event is of token ${String(event.payload.tokenId)}`);
    if (event.dataHash === null) return pass(name, 'no data hash: the chain records this event itself');
    const actual = payloadHash(event);
    return actual === event.dataHash.toLowerCase()
      ? pass(name, `keccak256 ${event.dataHash}`)
      : fail(name, `the payload hashes to ${actual}, the bundle says ${event.dataHash}`);
  });
}

/**
 * What each version says happened, against the anchored events: every event its operator section lists is a
 * bundled event with the same content, and each product-group section hashes to the SHA-256 its latest
 * PRODUCT_DATA_UPDATED event recorded. So a version rewritten (and re-hashed, and re-signed) still contradicts
 * the events the chain holds.
 */
export function verifyVersionsAgainstEvents(bundle: EvidenceBundle): Check[] {
  if (bundle.passport.granularity !== 'item') return [];
  const byId = new Map(bundle.events.map((event) => [String(event.payload.id), event.payload]));
  return bundle.versions.map((version) => {
    const name = `version ${version.number} against the events`;
    const problems = versionProblems(version, byId);
    return problems.length === 0
      ? pass(name, `its ${listedEvents(version).length} listed event(s) and its product data as anchored`)
      : fail(name, problems.join('; '));
  });
}

function listedEvents(version: EvidenceVersion): Record<string, unknown>[] {
  const section = version.document[OPERATOR_SECTION] as { events?: unknown } | undefined;
  return Array.isArray(section?.events) ? (section.events as Record<string, unknown>[]) : [];
}

function versionProblems(version: EvidenceVersion, events: Map<string, Record<string, unknown>>): string[] {
  const problems: string[] = [];
  const listed = listedEvents(version);
  for (const entry of listed) {
    const event = events.get(String(entry.id));
    if (!event) {
      problems.push(`lists event ${String(entry.id)}, which the bundle lacks`);
      continue;
    }
    const { tokenId: _token, ...content } = event;
    if (canonicalJson(entry) !== canonicalJson(content)) problems.push(`event ${String(entry.id)} differs`);
  }
  const latestData = new Map<string, unknown>();
  for (const entry of listed) {
    const metadata = entry.metadata as { contentSpecificationId?: unknown; dataSha256?: unknown } | undefined;
    if (entry.action === PRODUCT_DATA_UPDATED && typeof metadata?.contentSpecificationId === 'string')
      latestData.set(metadata.contentSpecificationId, metadata.dataSha256);
  }
  const sections = Array.isArray(version.document.contentSpecificationIds)
    ? (version.document.contentSpecificationIds as string[])
    : [];
  for (const id of sections) {
    if (id === PUBLIC_SECTION || id === OPERATOR_SECTION || !latestData.has(id)) continue;
    if (canonicalSha256(version.document[id] ?? null) !== latestData.get(id))
      problems.push(`section ${id} is not the data its last ${PRODUCT_DATA_UPDATED} event recorded`);
  }
  return problems;
}
