import { proxyActivities, setHandler } from '@temporalio/workflow';
import type { Activities } from '../activities/index.ts';
import type { AnchorEventProgress } from '../src/processes/anchor-event.ts';
import type {
  AnchorLevelVersionInput,
  AnchorLevelVersionResult,
} from '../src/processes/anchor-level-version.ts';
import { chainStep, recordingRound } from './activity-options.ts';
import { anchorProgressQuery } from './anchor-event.ts';
import { recordUntilDone } from './record-until-done.ts';

const chain = proxyActivities<Activities>(chainStep());
const recording = proxyActivities<Activities>(recordingRound());

/**
 * Anchors one version of a model or batch passport (id `anchor-level-version:{env}:{levelId}:{number}`), as
 * an event's anchor does, with the same progress query (`anchorProgress`):
 * 1. anchorLevelVersionOnChain — `anchorVersion(subject, sha256, publicSha256)` on the contract, at most once;
 * 2. recordLevelVersionAnchor — `anchored` with the transaction hash and block on the version row; once the
 *    hashes are on chain this is never given up (record-until-done.ts: flagged, retried until recorded).
 */
export async function anchorLevelVersion(input: AnchorLevelVersionInput): Promise<AnchorLevelVersionResult> {
  let progress: AnchorEventProgress = { step: 'anchoring' };
  setHandler(anchorProgressQuery, () => progress);

  const mined = await chain.anchorLevelVersionOnChain(input);
  progress = { step: 'recording', transactionHash: mined.transactionHash };
  await recordUntilDone(
    () => recording.recordLevelVersionAnchor({ ...input, ...mined }),
    (attention) => {
      progress = { step: 'recording', transactionHash: mined.transactionHash, attention };
    },
  );
  progress = { step: 'done', transactionHash: mined.transactionHash };
  return mined;
}
