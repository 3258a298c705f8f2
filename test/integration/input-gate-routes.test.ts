import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { openApiPath } from '../../api/route.ts';
import { allRoutes } from '../../api/routes/index.ts';
import { signUserToken } from '../../src/accounts/identity/user-token.ts';
import { userTokenKeysOf } from '../../src/accounts/identity/user-token-keys.ts';
import { StripeGateway } from '../../src/adapters/payments/stripe-gateway.ts';
import { SecretBox } from '../../src/platform/secret-box.ts';
import { startTestApi, type TestApi, type TestTenant } from '../support/api.ts';

// Every operation of the OpenAPI document (generated from the route table) gets hostile input built from its
// own request schema, so a new route is covered without touching this file. None may answer 5xx.

interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  format?: string;
  pattern?: string;
  minimum?: number;
  examples?: unknown[];
}

interface Operation {
  method: string;
  path: string;
  parameters: ({ name: string; in: string; schema: JsonSchema } | { $ref: string })[];
  requestBody?: { content: Record<string, { schema: JsonSchema }> };
}

interface FieldError {
  path: string;
  code: string;
  message: string;
}

const BAD = {
  nul_character: { text: 'value\u0000', key: 'key\u0000', shownKey: 'key\\u0000' },
  unpaired_surrogate: { text: 'value\ud800', key: 'key\ud800', shownKey: 'key\\ud800' },
} as const;
type BadKind = keyof typeof BAD;

function alternatives(schema: JsonSchema): JsonSchema[] {
  const options = schema.anyOf ?? schema.oneOf;
  if (!options) return [schema];
  return options.flatMap(alternatives).filter((s) => s.type !== 'null');
}

function typeOf(schema: JsonSchema): string | undefined {
  if (Array.isArray(schema.type)) return schema.type.find((t) => t !== 'null');
  if (schema.type) return schema.type;
  if (schema.properties) return 'object';
  return undefined;
}

/**
 * A value for `schema` whose every string carries `kind`'s bad text, and every free-form object a member
 * whose key carries it. `expected` collects the field paths the answer must name.
 */
function hostile(schema: JsonSchema, kind: BadKind, path: string, expected: string[]): unknown {
  const [chosen] = alternatives(schema);
  if (!chosen) return null;
  switch (typeOf(chosen)) {
    case 'object': {
      const value: Record<string, unknown> = {};
      for (const [name, member] of Object.entries(chosen.properties ?? {})) {
        value[name] = hostile(member, kind, `${path}.${name}`, expected);
      }
      if (chosen.additionalProperties !== false && chosen.additionalProperties !== undefined) {
        value[BAD[kind].key] = 1;
        expected.push(`${path}.${BAD[kind].shownKey}`);
      }
      return value;
    }
    case 'array':
      return [hostile(chosen.items ?? {}, kind, `${path}.0`, expected)];
    case 'integer':
    case 'number':
      return chosen.minimum ?? 1;
    case 'boolean':
      return true;
    case 'null':
      return null;
    default:
      // Strings, and schemas that accept anything (z.unknown()).
      expected.push(path);
      return BAD[kind].text;
  }
}

/** A well-formed value for a path or query parameter, so that only the parameter under test is bad. */
function sample(schema: JsonSchema): string {
  const [chosen] = alternatives(schema);
  if (chosen?.examples?.[0] !== undefined) return String(chosen.examples[0]);
  if (chosen?.format === 'uuid') return randomUUID();
  if (chosen?.type === 'integer' || chosen?.type === 'number') return '1';
  if (chosen?.pattern?.startsWith('^[1-9]')) return '1';
  return 'sample';
}

/** `{"<name>":{"a":{"a":…}}}` nested 10,000 levels, written as text (JSON.stringify itself would recurse). */
function deepBody(name: string): string {
  const levels = 10_000;
  return `{${JSON.stringify(name)}:${'{"a":'.repeat(levels - 1)}{}${'}'.repeat(levels - 1)}}`;
}

/** The member to nest the deep object under: a free-form object if the schema has one, else the first. */
function deepMember(schema: JsonSchema): string {
  const [shape] = alternatives(schema);
  const members = Object.entries(shape?.properties ?? {});
  const freeForm = members.find(([, s]) =>
    alternatives(s).some((a) => typeOf(a) === 'object' && a.additionalProperties && !a.properties),
  );
  return (freeForm ?? members[0])?.[0] ?? 'payload';
}

describe('every operation refuses unstorable strings and deep nesting with 400, never 5xx', () => {
  let api: TestApi;
  let tenant: TestTenant;
  let operations: Operation[];
  let userToken: string;
  /** The credential an operation declares: a user token for people's operations, else the API key. */
  const credentialOf = (op: Operation) =>
    (op as { security?: Record<string, unknown>[] }).security?.some((s) => 'userToken' in s)
      ? userToken
      : tenant.testKey;

  beforeAll(async () => {
    api = await startTestApi();
    tenant = await api.createTenant();
    // A real token signed with the service's key (login itself is tested in test/e2e/identity.test.ts).
    userToken = signUserToken(userTokenKeysOf(api.config), {
      userId: 1,
      email: 'gate@example.com',
      companyId: tenant.companyId,
      environment: 'test',
    });
    const doc = await api.call('GET', '/openapi.json', { env: null });
    assert.equal(doc.status, 200);
    operations = Object.entries(doc.body.paths as Record<string, Record<string, Operation>>).flatMap(
      ([path, methods]) => Object.entries(methods).map(([method, op]) => ({ ...op, method, path })),
    );
  });
  afterAll(() => api.close());

  /** The concrete URL of an operation, one parameter (or none) replaced by `bad`. */
  function urlOf(op: Operation, bad?: { name: string; in: string; value: string }): string {
    let url = op.path;
    const query = new URLSearchParams();
    for (const p of op.parameters) {
      if ('$ref' in p) continue;
      const value = bad?.name === p.name && bad.in === p.in ? bad.value : sample(p.schema);
      if (p.in === 'path') url = url.replace(`{${p.name}}`, encodeURIComponent(value));
      else if (p.in === 'query' && bad?.name === p.name && bad.in === p.in) query.set(p.name, value);
    }
    const search = query.toString();
    return search ? `${url}?${search}` : url;
  }

  function jsonOperations(): Operation[] {
    return operations.filter((op) => op.requestBody?.content['application/json']);
  }

  test('the document lists every route of the route table that takes a JSON body', () => {
    const routes = allRoutes({
      config: api.config,
      orm: api.db.orm,
      secretBox: new SecretBox(undefined),
      readiness: {},
      workflows: undefined,
      payments: new StripeGateway(api.config.payments),
    });
    const withBody = routes.filter((r) => r.body).map((r) => `${r.method} ${openApiPath(r.path)}`);
    assert.ok(withBody.length >= 15, `${withBody.length} routes with a body`);
    assert.deepEqual(
      jsonOperations()
        .map((op) => `${op.method} ${op.path}`)
        .sort(),
      withBody.sort(),
    );
  });

  for (const kind of Object.keys(BAD) as BadKind[]) {
    test(`${kind} in every string field and free-form key of every JSON body → 400 naming each`, async () => {
      const checked: string[] = [];
      for (const op of jsonOperations()) {
        const schema = op.requestBody!.content['application/json']!.schema;
        for (const shape of alternatives(schema)) {
          const expected: string[] = [];
          const body = hostile(shape, kind, 'body', expected) as Record<string, unknown>;
          if (expected.length === 0) {
            // No string anywhere in the schema (e.g. {overlapSeconds}): the bad text takes the first member.
            const member = Object.keys(shape.properties ?? {})[0] ?? 'payload';
            body[member] = BAD[kind].text;
            expected.push(`body.${member}`);
          }
          const label = `${op.method.toUpperCase()} ${op.path} ${JSON.stringify(body)}`;
          const res = await api.call(op.method.toUpperCase(), urlOf(op), { key: credentialOf(op), body });
          assert.ok(res.status < 500, `${label} → ${res.status} ${res.text}`);
          assert.equal(res.status, 400, `${label} → ${res.status} ${res.text}`);
          assert.equal(res.body.code, 'validation_failed', label);
          const named = (res.body.errors as FieldError[]).filter((e) => e.code === kind).map((e) => e.path);
          assert.deepEqual(named.sort(), expected.sort(), label);
          checked.push(label);
        }
      }
      assert.ok(checked.length >= jsonOperations().length);
    });
  }

  test('a member nested 10,000 levels deep in every JSON body → 400 naming the depth limit', async () => {
    for (const op of jsonOperations()) {
      const member = deepMember(op.requestBody!.content['application/json']!.schema);
      const rawBody = deepBody(member);
      const res = await api.call(op.method.toUpperCase(), urlOf(op), { key: credentialOf(op), rawBody });
      const label = `${op.method.toUpperCase()} ${op.path} (deep ${member})`;
      assert.ok(res.status < 500, `${label} → ${res.status} ${res.text}`);
      assert.equal(res.status, 400, `${label} → ${res.status} ${res.text}`);
      const [error] = res.body.errors as FieldError[];
      assert.equal(error?.code, 'too_deep', label);
      assert.ok(error?.path.startsWith(`body.${member}.a`), `${label}: ${error?.path}`);
      assert.ok(error?.message.includes(`at most ${api.config.limits.jsonMaxDepth} levels`), label);
    }
  });

  test('NUL in every path and query parameter → 400 naming it', async () => {
    let checked = 0;
    for (const op of operations) {
      for (const p of op.parameters) {
        if ('$ref' in p || (p.in !== 'path' && p.in !== 'query')) continue;
        const url = urlOf(op, { name: p.name, in: p.in, value: '1\u0000' });
        const body = op.requestBody ? {} : undefined;
        const res = await api.call(op.method.toUpperCase(), url, { key: credentialOf(op), body });
        const label = `${op.method.toUpperCase()} ${url}`;
        assert.ok(res.status < 500, `${label} → ${res.status} ${res.text}`);
        assert.equal(res.status, 400, `${label} → ${res.status} ${res.text}`);
        const where = p.in === 'path' ? 'path' : 'query';
        // The AAS API (/api/v3.0) answers its specification's Result: one message per invalid field.
        const named = op.path.startsWith('/api/v3.0/')
          ? (res.body.messages as { text: string }[]).some(
              (m) => m.text.startsWith(`${where}.${p.name}: `) && m.text.endsWith('(nul_character)'),
            )
          : (res.body.errors as FieldError[]).some(
              (e) => e.path === `${where}.${p.name}` && e.code === 'nul_character',
            );
        assert.ok(named, `${label}: ${res.text}`);
        checked += 1;
      }
    }
    assert.ok(checked >= 20, `${checked} parameters`);
  });

  test('OpenAPI documents the 400, 408 and 429 answers', async () => {
    const doc = await api.call('GET', '/openapi.json', { env: null });
    const responses = doc.body.components.responses;
    assert.match(responses.BadRequest.description, /NUL/);
    assert.match(responses.BadRequest.description, /deeper than 32 levels/);
    assert.match(responses.RequestTimeout.description, /10000 ms/);
    assert.ok(responses.TooManyRequests.headers['Retry-After']);
    for (const op of jsonOperations()) {
      assert.ok(op.requestBody);
      const answers = (doc.body.paths[op.path][op.method] as { responses: Record<string, unknown> })
        .responses;
      for (const status of ['400', '408', '429'])
        assert.ok(answers[status], `${op.method} ${op.path} ${status}`);
    }
  });
});
