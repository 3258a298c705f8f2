import type { CallResult } from './api.ts';
import { mintBody } from './fixtures/mint.ts';

/** How a test or bench calls the API with its tenant's key (a test stack's in-process API or an API process). */
export type ApiCall = (method: string, path: string, body?: unknown) => Promise<CallResult>;

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function waitUntil(
  check: () => Promise<boolean>,
  timeoutMs: number,
  what: string,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await sleep(100);
  }
}

export async function enrollChips(call: ApiCall, chips: string[]): Promise<void> {
  for (const chipUid of chips) {
    const enrolled = await call('POST', '/v1/dpp/enroll', { chipUid });
    if (enrolled.status >= 300) throw new Error(`enroll ${chipUid}: ${enrolled.status} ${enrolled.text}`);
  }
}

export interface MintOutcome {
  chipUid: string;
  ok: boolean;
  /** Request sent → COMPLETED. */
  ms: number;
  error?: string;
}

/**
 * One mint as a factory client does it: POST /v1/dpp/mint with a fresh tap, then (on 202) the status endpoint
 * until COMPLETED or FAILED.
 */
export async function mintThroughApi(call: ApiCall, chipUid: string, counter = 1): Promise<MintOutcome> {
  const started = performance.now();
  const answer = await call(
    'POST',
    '/v1/dpp/mint',
    mintBody({
      chipUid,
      counter,
      name: `Load item ${chipUid}`,
      custom_dpp_data: { conformity_url: 'https://load.example/doc.pdf' },
    }),
  );
  if (answer.status === 202) {
    for (;;) {
      await sleep(250);
      const body = (await call('GET', `/v1/dpp/mint/${chipUid}`)).body;
      if (body?.status === 'COMPLETED') break;
      if (body?.status === 'FAILED')
        return { chipUid, ok: false, ms: performance.now() - started, error: JSON.stringify(body) };
    }
  } else if (answer.status !== 201) {
    return { chipUid, ok: false, ms: performance.now() - started, error: answer.text.slice(0, 300) };
  }
  return { chipUid, ok: true, ms: performance.now() - started };
}
