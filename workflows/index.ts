// Every workflow the worker runs. Deterministic code only: imports @temporalio/workflow and types.
export { mintPassport, mintProgressQuery } from './mint.ts';
