import { Interface, type JsonRpcProvider } from 'ethers';
import { versionSubject } from '../../standards/anchors/version-subject.ts';
import type { EvidenceBundle, EvidenceVersion } from './bundle.ts';
import { type Check, fail, pass, pending } from './checks.ts';

const VERSION_ANCHORED = new Interface([
  'event VersionAnchored(bytes32 indexed subject, bytes32 dataHash, bytes32 publicDataHash)',
]).getEvent('VersionAnchored')!;

/**
 * A model's or batch's versions against the chain: each anchored version's transaction succeeded in the stated
 * block and logs VersionAnchored under the subject the verifier computes itself from the dppId and number,
 * carrying the SHA-256 of the version's document. A version rewritten after its anchor fails here.
 */
export async function verifyVersionAnchors(
  provider: JsonRpcProvider,
  bundle: EvidenceBundle,
): Promise<Check[]> {
  const checks: Check[] = [];
  for (const version of bundle.versions) checks.push(await versionCheck(provider, bundle, version));
  return checks;
}

async function versionCheck(
  provider: JsonRpcProvider,
  bundle: EvidenceBundle,
  version: EvidenceVersion,
): Promise<Check> {
  const name = `version ${version.number} anchor`;
  const anchor = version.anchor;
  if (!anchor) return pending(name, 'not anchored yet: unverifiable');
  const receipt = await provider.getTransactionReceipt(anchor.transactionHash);
  if (!receipt) return fail(name, `no transaction ${anchor.transactionHash} on the chain`);
  if (receipt.status !== 1) return fail(name, `transaction ${anchor.transactionHash} reverted`);
  if (receipt.blockNumber !== anchor.blockNumber)
    return fail(
      name,
      `transaction mined in block ${receipt.blockNumber}, the bundle says ${anchor.blockNumber}`,
    );
  const subject = versionSubject(bundle.passport.dppId, version.number);
  const logged = receipt.logs.find(
    (log) =>
      log.address.toLowerCase() === anchor.contractAddress.toLowerCase() &&
      log.topics[0] === VERSION_ANCHORED.topicHash &&
      log.topics[1] === subject,
  );
  if (!logged)
    return fail(
      name,
      `transaction ${anchor.transactionHash} anchors no version ${version.number} of this passport`,
    );
  const dataHash = String(new Interface([VERSION_ANCHORED]).parseLog(logged)?.args.dataHash).toLowerCase();
  if (dataHash !== `0x${version.sha256.toLowerCase()}`)
    return fail(
      name,
      `the chain holds ${dataHash} for this version, its document hashes to 0x${version.sha256}`,
    );
  return pass(
    name,
    `VersionAnchored in tx ${anchor.transactionHash}, block ${receipt.blockNumber}, log ${logged.index}`,
  );
}
