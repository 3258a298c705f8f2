import { Agent, request } from 'node:http';

export interface LoadResult {
  requests: number;
  errors: number;
  seconds: number;
  perSecond: number;
  p50: number;
  p99: number;
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

function get(agent: Agent, url: URL, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(url, { agent, headers }, (res) => {
      res.on('data', () => {});
      res.on('end', () => resolve(res.statusCode ?? 0));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

/**
 * `connections` keep-alive connections, each sending the next GET as soon as the last answer arrived, for
 * `seconds` (after `warmupSeconds` not counted). Paths are taken round-robin. Latency percentiles in ms.
 */
export async function runLoad(options: {
  baseUrl: string;
  paths: string[];
  headers: Record<string, string>;
  connections: number;
  seconds: number;
  warmupSeconds: number;
  expectStatus: number;
}): Promise<LoadResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: options.connections });
  const latencies: number[] = [];
  let errors = 0;
  let counted = 0;
  let next = 0;
  const started = performance.now();
  const measureFrom = started + options.warmupSeconds * 1000;
  const end = measureFrom + options.seconds * 1000;
  const loop = async () => {
    while (performance.now() < end) {
      const path = options.paths[next++ % options.paths.length]!;
      const sent = performance.now();
      let ok: boolean;
      try {
        ok = (await get(agent, new URL(path, options.baseUrl), options.headers)) === options.expectStatus;
      } catch {
        ok = false;
      }
      const done = performance.now();
      if (sent >= measureFrom && done <= end) {
        counted += 1;
        latencies.push(done - sent);
        if (!ok) errors += 1;
      }
    }
  };
  await Promise.all(Array.from({ length: options.connections }, loop));
  agent.destroy();
  latencies.sort((a, b) => a - b);
  return {
    requests: counted,
    errors,
    seconds: options.seconds,
    perSecond: counted / options.seconds,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
  };
}

export interface Answer {
  status: number;
  body: string;
}

/** One POST of a JSON body on a keep-alive agent; the answer's status and text. */
export function postJson(
  agent: Agent,
  url: URL,
  headers: Record<string, string>,
  body: unknown,
): Promise<Answer> {
  const payload = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        agent,
        method: 'POST',
        headers: {
          ...headers,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(payload),
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          text += chunk;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}
