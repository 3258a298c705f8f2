import { withOperationKey } from '../../src/adapters/chain/operation-key.ts';
import { levelVersionToAnchor, recordLevelVersionAnchor } from '../../src/passport/levels/level-anchor.ts';
import type {
  AnchorLevelVersionInput,
  AnchorLevelVersionResult,
} from '../../src/processes/anchor-level-version.ts';
import { sha256Bytes32, versionSubject } from '../../src/standards/anchors/version-subject.ts';
import { runChainWrite } from '../chain-write.ts';
import { type EnvironmentDeps, scopedFor } from '../deps.ts';

/** Activities of the level-version anchor workflow. Each one is safe to run again after a crash. */
export function levelAnchorActivities(deps: EnvironmentDeps) {
  return {
    /**
     * `anchorVersion(subject, sha256, publicSha256)` on the contract, at most once per version: a row already
     * anchored is answered as it is; otherwise the write carries the version's own operation key, so the
     * transaction manager stores it before sending and every later attempt (or run) waits for that transaction
     * instead of sending another.
     */
    async anchorLevelVersionOnChain(input: AnchorLevelVersionInput): Promise<AnchorLevelVersionResult> {
      const em = scopedFor(deps, input.scope);
      const version = await levelVersionToAnchor(em, input.scope, input.levelId, input.number);
      if (version.transactionHash && version.blockNumber !== null) {
        return { transactionHash: version.transactionHash, blockNumber: version.blockNumber };
      }
      return runChainWrite(deps.chain.writer, (write) =>
        withOperationKey(`level-version:${input.levelId}:${input.number}`, async () => {
          const result = await deps.chain.writer.anchorVersion(
            {
              subject: versionSubject(version.dppId, input.number),
              dataHash: sha256Bytes32(version.sha256),
              publicDataHash: sha256Bytes32(version.publicSha256),
            },
            { onSubmitted: write.submitted },
          );
          return { transactionHash: result.txHash, blockNumber: result.blockNumber };
        }),
      );
    },

    /** The transaction, block and contract on the version row; `anchorStatus` becomes `anchored`. */
    async recordLevelVersionAnchor(input: AnchorLevelVersionInput & AnchorLevelVersionResult) {
      await recordLevelVersionAnchor(
        scopedFor(deps, input.scope),
        input.scope,
        { levelId: input.levelId, number: input.number },
        {
          transactionHash: input.transactionHash,
          blockNumber: input.blockNumber,
          contractAddress: deps.chain.contractAddress,
        },
      );
    },
  };
}
