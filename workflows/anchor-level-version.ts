import { proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities/index.ts';
import type {
  AnchorLevelVersionInput,
  AnchorLevelVersionResult,
} from '../src/processes/anchor-level-version.ts';
import { chainStep, recordingRound } from './activity-options.ts';
import { anchorThenRecord } from './anchor-steps.ts';

const chain = proxyActivities<Activities>(chainStep());
const recording = proxyActivities<Activities>(recordingRound());

/**
 * Anchors one version of a model or batch passport (id `anchor-level-version:{env}:{levelId}:{number}`), as
 * an event's anchor does, with the same progress query (`anchorProgress`):
 * 1. anchorLevelVersionOnChain — `anchorVersion(subject, sha256, publicSha256)` on the contract, at most once;
 * 2. recordLevelVersionAnchor — `anchored` with the transaction hash and block on the version row; once the
 *    hashes are on chain this is never given up (record-until-done.ts: flagged, retried until recorded).
 */
export function anchorLevelVersion(input: AnchorLevelVersionInput): Promise<AnchorLevelVersionResult> {
  return anchorThenRecord(
    () => chain.anchorLevelVersionOnChain(input),
    (mined) => recording.recordLevelVersionAnchor({ ...input, ...mined }),
  );
}
