import type { WorkflowGateway } from '../../../src/adapters/temporal/start.ts';
import { mintTwin } from '../../../src/lifecycle/mint/mint-twin.ts';
import type { MintInput } from '../../../src/processes/mint.ts';

// For POST /v1/factory/bind shape B (api/routes/bind/bind.ts, another owner's), which should call mintTwin itself.
export { existingTokenId, mintInputFromTwin } from '../../../src/lifecycle/mint/mint-twin.ts';

export type TwinMintOutcome = { done: true; tokenId: string } | { done: false; statusUrl: string };

/** The twin's mint (src/lifecycle/mint/mint-twin.ts), its pending answer pointing at the mint's status. */
export async function mintBoundTwin(
  gateway: WorkflowGateway | undefined,
  input: MintInput,
  waitMs: number,
): Promise<TwinMintOutcome> {
  const outcome = await mintTwin({ workflows: gateway, waitMs }, input);
  return outcome.done
    ? { done: true, tokenId: outcome.result.tokenId }
    : { done: false, statusUrl: `/v1/dpp/mint/${outcome.chipUid}` };
}
