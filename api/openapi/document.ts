import { z } from 'zod';
import { ENVIRONMENT_HEADER } from '../middleware/service-environment.ts';
import { openApiPath, type RouteSpec } from '../route.ts';

const problemSchema = z.object({
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
  if (route.auth === 'apiKey' || route.path.startsWith('/v1/')) {
    parameters.push({ $ref: '#/components/parameters/ServiceEnvironment' });
  }
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

/** OpenAPI 3.1 generated from the same zod schemas that validate requests. */
export function buildOpenApiDocument(routes: RouteSpec[], serverUrl: string): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const responses: Record<string, unknown> = {};
    for (const [status, response] of Object.entries(route.responses)) {
      const contentType = response.contentType ?? 'application/json';
      responses[status] = {
        description: response.description,
        ...(response.schema
          ? { content: { [contentType]: { schema: jsonSchema(response.schema, 'output') } } }
          : {}),
      };
    }
    responses.default = {
      description: 'Error (RFC 9457 problem details).',
      content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } },
    };
    const path = openApiPath(route.path);
    paths[path] ??= {};
    paths[path][route.method] = {
      operationId: route.operationId,
      summary: route.summary,
      ...(route.description ? { description: route.description } : {}),
      tags: route.tags,
      parameters: parametersOf(route),
      ...(route.auth === 'apiKey' ? { security: [{ apiKey: [] }] } : { security: [] }),
      ...(route.body
        ? {
            requestBody: {
              required: !route.bodyOptional,
              content: { 'application/json': { schema: jsonSchema(route.body, 'input') } },
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
      parameters: {
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
      },
    },
  };
}
