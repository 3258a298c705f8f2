import { EVIDENCE_BUNDLE_FORMAT, type EvidenceBundle } from './bundle.ts';
import { type Check, fail } from './checks.ts';
import { verifyAnchors } from './verify-anchors.ts';
import { verifyEventHashes, verifyVersions, verifyVersionsAgainstEvents } from './verify-history.ts';
import { verifyCredentials, verifyManifest } from './verify-signatures.ts';

export interface VerifyOptions {
  /** The chain node (JSON-RPC URL) the anchors are checked against. */
  rpcUrl: string;
  /** Issuer Multikeys obtained out of band (its published did.json): the manifest must be signed by one. */
  trustedKeys?: readonly string[];
}

/**
 * Every check of an evidence bundle (docs/evidence.md), with only the bundle and a chain node: no database, no
 * service. Signatures (manifest, credentials) against the bundled DID documents, every hash, every anchor.
 */
export async function verifyEvidence(input: unknown, options: VerifyOptions): Promise<Check[]> {
  const bundle = input as EvidenceBundle;
  if (bundle?.format !== EVIDENCE_BUNDLE_FORMAT)
    return [fail('format', `not a ${EVIDENCE_BUNDLE_FORMAT} bundle`)];
  const checks: Check[] = [];
  try {
    checks.push(
      ...verifyManifest(bundle, options.trustedKeys ?? []),
      ...(await verifyCredentials(bundle)),
      ...verifyVersions(bundle),
      ...verifyEventHashes(bundle),
      ...verifyVersionsAgainstEvents(bundle),
    );
  } catch (error) {
    return [...checks, fail('bundle', `malformed: ${(error as Error).message}`)];
  }
  try {
    checks.push(...(await verifyAnchors(bundle, options.rpcUrl)));
  } catch (error) {
    checks.push(fail('chain anchors', (error as Error).message));
  }
  return checks;
}
