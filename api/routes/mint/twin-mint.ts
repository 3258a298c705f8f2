// Kept for api/routes/bind/bind.ts, which is another owner's: it should import from src and this go.
export {
  existingTokenId,
  mintBoundTwin,
  mintInputFromTwin,
} from '../../../src/lifecycle/mint/mint-twin.ts';
