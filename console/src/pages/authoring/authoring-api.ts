import { ApiError, type Environment } from '../../api.ts';

/**
 * The console's calls for authoring (issue 36): the content specifications' JSON Schemas, a passport's
 * product-group data with its ETag, its completeness, and the EN 18222 writes (PUT …/content/{specId} with
 * If-Match, POST /v1/dpps). The ETag and the API's field errors matter here, so these read the whole answer.
 */

type Json = Record<string, unknown>;

export interface Specification {
  id: string;
  group: string;
  version: string;
  title: string;
  schema: Json;
}

export interface ContentRead {
  data: Json;
  /** Leaf pointer → the dppId it comes from (an item's model or batch, or the item itself). */
  sources: Record<string, string>;
  etag: string | null;
}

export interface MissingFact {
  fact: string;
  fix:
    | { kind: 'content'; specificationId: string; pointer: string }
    | { kind: 'setting'; setting: 'economicOperatorId' | 'facilityId' }
    | { kind: 'metadata'; field: string };
}

export interface Completeness {
  digitalProductPassportId: string;
  complete: boolean;
  sections: { id: string; title: string; missing: MissingFact[] }[];
}

/** A refusal naming fields (400 content_invalid): RFC 6901 pointers into the data sent. */
export class FieldErrors extends ApiError {
  readonly errors: { path: string; message: string }[];
  constructor(status: number, code: string, message: string, errors: { path: string; message: string }[]) {
    super(status, code, message);
    this.errors = errors;
  }
}

const STALE =
  'Someone changed this passport’s data since you opened the form: nothing was saved. Reload to see their ' +
  'change, then make yours again.';

/** 412: the data changed since the form was opened. */
export class StaleForm extends ApiError {}

async function send(
  env: Environment,
  method: 'GET' | 'PUT' | 'POST',
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<{ data: Json; etag: string | null }> {
  const all: Record<string, string> = { accept: 'application/json', 'x-service-env': env, ...headers };
  if (body !== undefined) all['content-type'] = 'application/json';
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      headers: all,
      credentials: 'same-origin',
      cache: 'no-store',
      body: body === undefined ? null : JSON.stringify(body),
    });
  } catch {
    throw new ApiError(0, 'network', 'The service cannot be reached. Check your connection and try again.');
  }
  const data = (await response.json().catch(() => ({}))) as Json;
  if (!response.ok) {
    const code = typeof data.code === 'string' ? data.code : 'error';
    const message =
      typeof data.detail === 'string' ? data.detail : `The request failed (${response.status}).`;
    if (response.status === 412) {
      throw new StaleForm(412, code, STALE);
    }
    if (Array.isArray(data.errors)) {
      throw new FieldErrors(
        response.status,
        code,
        message,
        data.errors as { path: string; message: string }[],
      );
    }
    throw new ApiError(response.status, code, message);
  }
  return { data, etag: response.headers.get('etag') };
}

const dpp = (dppId: string) => `/v1/dpps/${encodeURIComponent(dppId)}`;
const content = (dppId: string, specId: string) => `${dpp(dppId)}/content/${encodeURIComponent(specId)}`;

export const authoring = {
  specifications: async (env: Environment) =>
    (await send(env, 'GET', '/v1/content-specifications')).data.items as Omit<Specification, 'schema'>[],
  specification: async (env: Environment, specId: string) =>
    (await send(env, 'GET', `/v1/content-specifications/${encodeURIComponent(specId)}`))
      .data as unknown as Specification,
  /** The passport's data of one group (merged over its model's and batch's); null when none was written. */
  read: async (env: Environment, dppId: string, specId: string): Promise<ContentRead | null> => {
    try {
      const { data, etag } = await send(env, 'GET', content(dppId, specId));
      return { data: data.data as Json, sources: (data.sources ?? {}) as Record<string, string>, etag };
    } catch (caught) {
      if (caught instanceof ApiError && caught.code === 'content_not_found') return null;
      throw caught;
    }
  },
  /** Writes the data over what the form read (If-Match: its ETag), or first data (no ETag). */
  write: async (env: Environment, dppId: string, specId: string, data: Json, etag: string | null) => {
    // The API takes no If-None-Match: a first write checks that nobody wrote meanwhile (a narrow window stays).
    if (etag === null && (await authoring.read(env, dppId, specId))?.etag) {
      throw new StaleForm(412, 'precondition_failed', STALE);
    }
    const { data: answer, etag: next } = await send(
      env,
      'PUT',
      content(dppId, specId),
      data,
      etag ? { 'if-match': etag } : {},
    );
    return { etag: next, version: (answer.version as { number: number } | undefined)?.number ?? null };
  },
  /** The EN 18222 document (owner's view, merged with the model's and batch's data). */
  document: async (env: Environment, dppId: string) => (await send(env, 'GET', dpp(dppId))).data,
  completeness: async (env: Environment, dppId: string) =>
    (await send(env, 'GET', `${dpp(dppId)}/completeness`)).data as unknown as Completeness,
  createLevel: async (env: Environment, body: Json) =>
    (await send(env, 'POST', '/v1/dpps', body)).data as { digitalProductPassportId: string },
};
