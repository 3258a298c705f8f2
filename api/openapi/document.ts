import { z } from 'zod';
import { ENVIRONMENT_HEADER } from '../middleware/service-environment.ts';
import { openApiPath, type RouteSpec } from '../route.ts';

// RFC 9457 lets a problem carry extension members (retryAfterSeconds, limitBytes, …): the schema allows them.
const problemSchema = z.looseObject({
  type: z.string(),
  title: z.string(),
  status: z.number().int(),
  detail: z.string(),
  instance: z.string(),
  code: z.string().describe('Stable, machine-readable error code.'),
  requestId: z.string(),
  success: z.literal(false),
  errors: z.array(z.object({ path: z.string(), message: z.string(), code: z.string() })).optional(),
});

function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): Record<string, unknown> {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, {
    target: 'draft-2020-12',
    io,
    unrepresentable: 'any',
  }) as Record<string, unknown>;
  return rest;
}

function parametersOf(route: RouteSpec): Record<string, unknown>[] {
  const parameters: Record<string, unknown>[] = [];
  if (route.environmentHeader !== false && (route.auth !== 'none' || route.path.startsWith('/v1/'))) {
    parameters.push({ $ref: '#/components/parameters/ServiceEnvironment' });
  }
  if (route.idempotent) parameters.push({ $ref: '#/components/parameters/IdempotencyKey' });
  for (const [location, schema] of [
    ['path', route.params],
    ['query', route.query],
  ] as const) {
    if (!schema) continue;
    const object = jsonSchema(schema, 'input') as {
      properties?: Record<string, unknown>;
      required?: string[];
    };
    for (const [name, property] of Object.entries(object.properties ?? {})) {
      parameters.push({
        name,
        in: location,
        required: location === 'path' || (object.required ?? []).includes(name),
        schema: property,
      });
    }
  }
  return parameters;
}

/** The configured request bounds the standard 400 and 408 answers name. */
export interface DocumentedLimits {
  jsonMaxDepth: number;
  jsonMaxObjectKeys: number;
  bodyReadTimeoutMs: number;
}

const problemContent = {
  'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } },
};

function standardResponses(limits: DocumentedLimits): Record<string, Record<string, unknown>> {
  return {
    BadRequest: {
      description:
        'validation_failed (errors[] names each field, e.g. body.erp_metadata.material_number): a path, query ' +
        'or body field fails its schema; any string or object key contains NUL (U+0000) or an unpaired ' +
        `surrogate (codes nul_character, unpaired_surrogate); JSON nested deeper than ${limits.jsonMaxDepth} ` +
        `levels (too_deep) or an object with more than ${limits.jsonMaxObjectKeys} keys (too_many_keys). Also ` +
        'malformed_json, missing_environment, invalid_environment.',
      content: problemContent,
    },
    Unauthorized: {
      description:
        'unauthorized: no, unknown, malformed or revoked API key. Refused calls spend from the per-address ' +
        'rate limit (429 once it is used up).',
      headers: { 'WWW-Authenticate': { schema: { type: 'string' } } },
      content: problemContent,
    },
    Forbidden: {
      description: 'environment_mismatch: a genuine key of the other environment.',
      content: problemContent,
    },
    RequestTimeout: {
      description:
        `request_timeout: the request body did not arrive within ${limits.bodyReadTimeoutMs} ms ` +
        '(BODY_READ_TIMEOUT_MS); the connection is closed.',
      content: problemContent,
    },
    PayloadTooLarge: {
      description: 'payload_too_large: the body exceeds the limit.',
      content: problemContent,
    },
    NotFound: {
      description:
        'not_found (or a more specific *_not_found code): nothing the path names exists in the caller’s ' +
        'company and environment.',
      content: problemContent,
    },
    IdempotencyInProgress: {
      description:
        'idempotency_request_in_progress: a request with this Idempotency-Key is still being processed; retry.',
      content: problemContent,
    },
    IdempotencyKeyReused: {
      description: 'idempotency_key_reused: this Idempotency-Key was used with a different request.',
      content: problemContent,
    },
    UnsupportedMediaType: {
      description: 'unsupported_media_type: the body is not JSON.',
      content: problemContent,
    },
    ServiceUnavailable: {
      description:
        'database_unavailable: the database cannot be reached (the request changed nothing; retry after ' +
        'Retry-After). Routes that start or signal workflows also answer workflows_unavailable when the ' +
        'Temporal server cannot be reached.',
      headers: {
        'Retry-After': { description: 'Seconds to wait before retrying.', schema: { type: 'integer' } },
      },
      content: problemContent,
    },
    HeadersTooLarge: {
      description: 'headers_too_large: the request line (path and query) and headers exceed 16 KiB.',
      content: problemContent,
    },
    TooManyRequests: {
      description:
        'rate_limited: over RATE_LIMIT_PER_MINUTE, per API key, or per client address for calls without a ' +
        'valid key (refused keys included).',
      headers: {
        'Retry-After': {
          description: 'Seconds until a request is accepted again.',
          schema: { type: 'integer' },
        },
        'RateLimit-Limit': { schema: { type: 'integer' } },
        'RateLimit-Remaining': { schema: { type: 'integer' } },
      },
      content: problemContent,
    },
  };
}

const IDEMPOTENCY_409 =
  ' Also idempotency_request_in_progress: a request with this Idempotency-Key is still running.';
const IDEMPOTENCY_422 =
  ' Also idempotency_key_reused: this Idempotency-Key was used with a different request.';

/** The error answers every route of its kind can give, unless the route documents that status itself. */
function standardResponseRefs(route: RouteSpec): Record<string, unknown> {
  const ref = (name: string) => ({ $ref: `#/components/responses/${name}` });
  const refs: Record<string, unknown> = {};
  const takesInput = Boolean(route.body || route.query || route.params);
  if (takesInput || route.auth !== 'none' || route.path.startsWith('/v1/')) refs[400] = ref('BadRequest');
  if (route.auth !== 'none') {
    refs[401] = ref('Unauthorized');
    refs[403] = ref('Forbidden');
  }
  if (route.body) {
    refs[408] = ref('RequestTimeout');
    refs[413] = ref('PayloadTooLarge');
    refs[415] = ref('UnsupportedMediaType');
  }
  if (route.params) refs[404] = ref('NotFound');
  if (route.idempotent) {
    refs[409] = ref('IdempotencyInProgress');
    refs[422] = ref('IdempotencyKeyReused');
  }
  refs[429] = ref('TooManyRequests');
  refs[431] = ref('HeadersTooLarge');
  refs[503] = ref('ServiceUnavailable');
  return refs;
}

/** OpenAPI 3.1 generated from the same zod schemas that validate requests. */
export function buildOpenApiDocument(
  routes: RouteSpec[],
  serverUrl: string,
  limits: DocumentedLimits,
): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const responses: Record<string, unknown> = {};
    for (const [status, response] of Object.entries(route.responses)) {
      const contentType = response.contentType ?? 'application/json';
      responses[status] = {
        description: response.description,
        ...(response.schema
          ? { content: { [contentType]: { schema: jsonSchema(response.schema, 'output') } } }
          : Number(status) >= 400
            ? { content: problemContent }
            : {}),
      };
    }
    for (const [status, ref] of Object.entries(standardResponseRefs(route))) {
      const own = responses[status] as { description: string } | undefined;
      if (own && route.idempotent && (status === '409' || status === '422')) {
        own.description += status === '409' ? IDEMPOTENCY_409 : IDEMPOTENCY_422;
      }
      responses[status] ??= ref;
    }
    const path = openApiPath(route.path);
    paths[path] ??= {};
    paths[path][route.method] = {
      operationId: route.operationId,
      summary: route.summary,
      ...(route.description ? { description: route.description } : {}),
      tags: route.tags,
      parameters: parametersOf(route),
      security:
        route.auth === 'none'
          ? route.optionalCredential
            ? [{}, { apiKey: [] }, { oauthClient: [] }, { userToken: [] }, { consoleSession: [] }]
            : []
          : route.auth === 'apiKey'
            ? [{ apiKey: [] }, { oauthClient: [] }]
            : route.auth === 'user'
              ? [{ userToken: [] }, { consoleSession: [] }]
              : [{ apiKey: [] }, { oauthClient: [] }, { userToken: [] }, { consoleSession: [] }],
      ...(route.body
        ? {
            requestBody: {
              required: !route.bodyOptional,
              content: Object.fromEntries(
                (route.formBody
                  ? ['application/json', 'application/x-www-form-urlencoded']
                  : ['application/json']
                ).map((type) => [type, { schema: jsonSchema(route.docBody ?? route.body!, 'input') }]),
              ),
            },
          }
        : {}),
      responses,
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Digital Product Passport service',
      version: '1.0.0',
      description:
        'Every /v1 call names its environment in the x-service-env header (live or test). Errors are RFC 9457 ' +
        'problem details with success: false, a stable code and the request id.',
    },
    servers: [{ url: serverUrl }],
    paths,
    components: {
      schemas: { Problem: jsonSchema(problemSchema, 'output') },
      responses: standardResponses(limits),
      parameters: {
        IdempotencyKey: {
          name: 'Idempotency-Key',
          in: 'header',
          required: false,
          description:
            'Makes retries safe: the same key with the same request replays the first successful response ' +
            '(header Idempotent-Replayed: true) for 24 hours.',
          schema: { type: 'string', pattern: '^[\\x21-\\x7e]{1,255}$' },
        },
        ServiceEnvironment: {
          name: ENVIRONMENT_HEADER,
          in: 'header',
          required: true,
          description: 'The environment of the call. Keys only work in their own environment.',
          schema: { type: 'string', enum: ['live', 'test'] },
        },
      },
      securitySchemes: {
        apiKey: {
          type: 'http',
          scheme: 'bearer',
          description: 'API key: sk_live_… for live, sk_test_… for test.',
        },
        oauthClient: {
          type: 'oauth2',
          description:
            'OAuth 2.0 client credentials: an opaque access token (1 hour) from POST /v1/auth/oauth/token, sent ' +
            'as Authorization: Bearer; accepted wherever an API key is.',
          flows: { clientCredentials: { tokenUrl: '/v1/auth/oauth/token', scopes: {} } },
        },
        userToken: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'JWT',
          description:
            'User token from POST /v1/auth/login: EdDSA-signed, 15 minutes, bound to the environment it was ' +
            'issued for; public keys at /.well-known/jwks.json.',
        },
        consoleSession: {
          type: 'apiKey',
          in: 'cookie',
          name: 'dpp_console',
          description:
            'The web console’s session (POST /v1/console/session): an HttpOnly, SameSite=Strict cookie, named ' +
            '__Host-dpp_console and Secure outside localhost. Accepted where a user token is, when no ' +
            'Authorization header is sent; writes must come from the service’s own origin (Origin header).',
        },
      },
    },
  };
}
