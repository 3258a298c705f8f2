// Kept for api/routes/dpp-api/dpp-dynamic.ts, which is another owner's: it should import from src and this go.
export { startAnchor } from '../../../src/lifecycle/supply-chain/anchor-event.ts';
