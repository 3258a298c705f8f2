import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { registrationPayloadSchema } from '../../src/adapters/registry/registration-payload.ts';

/** What the emulator holds of one registration (GET /v1/registrations/{id} shows it). */
interface EmulatedRegistration {
  registrationId: string;
  registrationKey: string;
  uniqueProductIdentifier: string;
  granularity: string;
  uniqueOperatorIdentifier: string;
  registeredAt: string;
  versions: { number: number; sha256: string; dppStatus: string; receivedAt: string }[];
  payload: unknown;
}

/** The fault switches (POST /_admin/switches, or the emulator's options). */
export interface RegistrySwitches {
  /** Refuse every registration and update with this reason (422); null: judge each on its payload. */
  refuse: string | null;
  /** Wait this long before answering each call. */
  delayMs: number;
  /** Answer the next n calls 503 (the registry down for a while). */
  unavailable: number;
}

export interface RegistryEmulator {
  url: string;
  /** The token calls must carry (`Authorization: Bearer …`); undefined: none asked. */
  token: string | undefined;
  switches: RegistrySwitches;
  /** Every registration, and how many calls were accepted, refused and answered from the idempotency store. */
  state(): { registrations: EmulatedRegistration[]; accepted: number; refused: number; replayed: number };
  stop(): Promise<void>;
}

type Answer = { status: number; body: Record<string, unknown> };

/**
 * The EU DPP registry as our client sees it (docs/registry.md "The emulator"): no public API or sandbox of the
 * registry exists, so this server speaks the protocol our adapter (src/adapters/registry/http-registry.ts)
 * expects, the way stripe-mock speaks Stripe's. It validates every payload against the fields Implementing
 * Regulation (EU) 2026/1778 names (400 with the fields in error), keeps one registration per unique product
 * identifier, and answers a repeated Idempotency-Key with the first answer (only accepted calls are stored, as
 * Stripe does not store a request that failed validation). Switches make it refuse or delay for fault tests.
 */
export async function startRegistryEmulator(
  options: { port?: number; token?: string; switches?: Partial<RegistrySwitches> } = {},
): Promise<RegistryEmulator> {
  const switches: RegistrySwitches = { refuse: null, delayMs: 0, unavailable: 0, ...options.switches };
  const byId = new Map<string, EmulatedRegistration>();
  const byUpi = new Map<string, EmulatedRegistration>();
  const answered = new Map<string, Answer>();
  const counts = { accepted: 0, refused: 0, replayed: 0 };

  const judge = (body: unknown, registrationId: string | undefined): Answer => {
    if (switches.refuse !== null) {
      return { status: 422, body: { error: 'registration_refused', reason: switches.refuse, fields: [] } };
    }
    const parsed = registrationPayloadSchema.safeParse(body);
    if (!parsed.success) {
      const fields = parsed.error.issues.map((issue) => ({
        path: issue.path.join('.'),
        message: issue.message,
      }));
      const reason = `The registration does not conform: ${fields.map((f) => `${f.path}: ${f.message}`).join('; ')}`;
      return { status: 400, body: { error: 'invalid_registration', reason, fields } };
    }
    const payload = parsed.data;
    const now = new Date().toISOString();
    const version = {
      number: payload.version.number,
      sha256: payload.version.sha256,
      dppStatus: payload.dppStatus,
      receivedAt: now,
    };
    if (registrationId === undefined) {
      const existing = byUpi.get(payload.uniqueProductIdentifier);
      if (existing && existing.registrationKey !== payload.registrationKey) {
        const reason = `${payload.uniqueProductIdentifier} is registered already (${existing.registrationId}).`;
        return { status: 409, body: { error: 'already_registered', reason, fields: [] } };
      }
      if (existing) return { status: 200, body: view(existing) };
      const registration: EmulatedRegistration = {
        registrationId: `EU-DPP-${randomBytes(8).toString('hex').toUpperCase()}`,
        registrationKey: payload.registrationKey,
        uniqueProductIdentifier: payload.uniqueProductIdentifier,
        granularity: payload.granularity,
        uniqueOperatorIdentifier: payload.uniqueOperatorIdentifier,
        registeredAt: now,
        versions: [version],
        payload,
      };
      byId.set(registration.registrationId, registration);
      byUpi.set(registration.uniqueProductIdentifier, registration);
      return { status: 201, body: view(registration) };
    }
    const registration = byId.get(registrationId);
    if (!registration) {
      return {
        status: 404,
        body: { error: 'not_found', reason: `No registration ${registrationId}.`, fields: [] },
      };
    }
    if (registration.uniqueProductIdentifier !== payload.uniqueProductIdentifier) {
      const reason = `Registration ${registrationId} is for ${registration.uniqueProductIdentifier}.`;
      return { status: 409, body: { error: 'identifier_mismatch', reason, fields: [] } };
    }
    registration.versions.push(version);
    registration.payload = payload;
    return { status: 201, body: view(registration) };
  };

  const handle = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const url = new URL(request.url ?? '/', 'http://registry');
    const send = (answer: Answer, headers: Record<string, string> = {}) => {
      response.writeHead(answer.status, { 'content-type': 'application/json', ...headers });
      response.end(JSON.stringify(answer.body));
    };
    const body = await readJson(request);
    if (url.pathname === '/_admin/switches' && request.method === 'POST') {
      Object.assign(switches, pick(body));
      return send({ status: 200, body: { ...switches } });
    }
    if (url.pathname === '/_admin/state' && request.method === 'GET') {
      return send({ status: 200, body: state() });
    }
    const match = /^\/v1\/registrations(?:\/([^/]+)(\/versions)?)?$/.exec(url.pathname);
    if (!match) return send({ status: 404, body: { error: 'not_found', reason: 'No such resource.' } });
    if (request.method === 'GET') {
      const found = match[1] ? byId.get(decodeURIComponent(match[1])) : undefined;
      return found
        ? send({ status: 200, body: { ...view(found), versions: found.versions } })
        : send({ status: 404, body: { error: 'not_found', reason: 'No such registration.' } });
    }
    if (request.method !== 'POST' || (match[1] && !match[2])) {
      return send({ status: 405, body: { error: 'method_not_allowed', reason: 'POST a registration.' } });
    }
    if (options.token && request.headers.authorization !== `Bearer ${options.token}`) {
      return send({
        status: 401,
        body: { error: 'unauthorized', reason: 'A valid bearer credential is needed.' },
      });
    }
    const key = request.headers['idempotency-key'];
    if (typeof key !== 'string' || key.length === 0 || key.length > 255) {
      return send({
        status: 400,
        body: { error: 'idempotency_key_required', reason: 'Send an Idempotency-Key.' },
      });
    }
    if (switches.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, switches.delayMs));
    if (switches.unavailable > 0) {
      switches.unavailable--;
      return send({ status: 503, body: { error: 'unavailable', reason: 'The registry is unavailable.' } });
    }
    const replay = answered.get(key);
    if (replay) {
      counts.replayed++;
      return send(replay, { 'idempotent-replayed': 'true' });
    }
    const answer = judge(body, match[1] ? decodeURIComponent(match[1]) : undefined);
    if (answer.status < 300) {
      answered.set(key, answer);
      counts.accepted++;
    } else counts.refused++;
    send(answer);
  };

  const state = () => ({ registrations: [...byId.values()], ...counts });
  const server = createServer((request, response) => {
    handle(request, response).catch((error: Error) => {
      response.writeHead(500, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ error: 'internal', reason: error.message }));
    });
  });
  await new Promise<void>((ready) => server.listen(options.port ?? 0, '127.0.0.1', ready));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    token: options.token,
    switches,
    state,
    stop: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}

function view(registration: EmulatedRegistration) {
  return {
    registrationId: registration.registrationId,
    uniqueProductIdentifier: registration.uniqueProductIdentifier,
    granularity: registration.granularity,
    registeredAt: registration.registeredAt,
    versionCount: registration.versions.length,
  };
}

function pick(body: unknown): Partial<RegistrySwitches> {
  const given = (body ?? {}) as Record<string, unknown>;
  const out: Partial<RegistrySwitches> = {};
  if ('refuse' in given) out.refuse = typeof given.refuse === 'string' ? given.refuse : null;
  if (typeof given.delayMs === 'number') out.delayMs = Math.max(0, given.delayMs);
  if (typeof given.unavailable === 'number') out.unavailable = Math.max(0, Math.floor(given.unavailable));
  return out;
}

async function readJson(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  if (chunks.length === 0) return undefined;
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    return undefined;
  }
}
