import type { z } from 'zod';
import type { AppContext } from './context.ts';

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

export interface ResponseSpec {
  description: string;
  schema?: z.ZodType;
  contentType?: string;
}

/**
 * One HTTP operation: its contract (schemas used both to validate and to generate OpenAPI) and its handler.
 * `auth: 'apiKey'` implies the `x-service-env` header and a tenant-scoped entity manager in `ctx.state.em`.
 */
export interface RouteSpec<B = unknown, Q = unknown, P = unknown> {
  method: HttpMethod;
  path: string;
  operationId: string;
  summary: string;
  description?: string;
  tags: string[];
  /**
   * The credential the operation takes: an API key or OAuth access token (backend systems), a user token from
   * login (people: the claim of a resale, KYC), either (a release: by the brand or by a consumer owner), or
   * none (public pages, signed webhooks, login itself).
   */
  auth: 'apiKey' | 'user' | 'apiKeyOrUser' | 'none';
  /**
   * With `auth: 'none'`: the operation also takes a credential when one is sent and answers by it
   * (docs/disclosure.md). The router checks it before the handler (api/middleware/optional-auth.ts
   * authenticateReader: not valid → 401, of the other environment → 403); OpenAPI lists anonymous and the
   * credentials as alternatives.
   */
  optionalCredential?: true;
  /**
   * false: a /v1 route that is called without `x-service-env` (a payment provider's webhook) and tells the
   * environment itself.
   */
  environmentHeader?: false;
  body?: z.ZodType<B>;
  /** The body may be omitted; it is then validated as `{}` (so schema defaults apply). */
  bodyOptional?: boolean;
  /** Documents the body in OpenAPI when `body` only pre-parses it (the handler validates further). */
  docBody?: z.ZodType;
  query?: z.ZodType<Q>;
  params?: z.ZodType<P>;
  /** The body may also come form-encoded (application/x-www-form-urlencoded), as OAuth token requests do. */
  formBody?: true;
  /** Largest accepted body in bytes; defaults to the configured JSON limit. */
  bodyLimitBytes?: number;
  /** The handler answers through respondIdempotently: OpenAPI documents the Idempotency-Key header and its errors. */
  idempotent?: true;
  /**
   * Every status the operation answers. Error statuses (≥ 400) without a schema are problem documents; the
   * generic ones (400, 401, 403, 408, 413, 415, 429, 503, and 404 for a route with path parameters) are added
   * by the OpenAPI generator unless listed here.
   */
  responses: Record<number, ResponseSpec>;
  handler: (ctx: AppContext, input: { body: B; query: Q; params: P }) => Promise<void>;
}

/** Identity helper that keeps the schema → handler input types connected. */
export function defineRoute<B = undefined, Q = undefined, P = undefined>(
  spec: RouteSpec<B, Q, P>,
): RouteSpec {
  return spec as unknown as RouteSpec;
}

/** `/v1/auth/api-keys/:id` → `/v1/auth/api-keys/{id}` */
export function openApiPath(path: string): string {
  return path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
}
