/**
 * The OpenAPI 3.1 document of the service, served at `GET /api/openapi.json`, rendered from data:
 * the zod schemas the routes validate with (./requests.ts) and answer by (./answers.ts), and which
 * route takes and answers which of them (the operations it is handed: src/runtime/operations.ts
 * gathers every route of the port, each declared once as data).
 * Each operation's `operationId` is its name in the contract (`Operation.operationId`); the version is
 * package.json's; an open operation says so (`security: []`).
 * test/openapi.test.ts checks that every route the service has is in it and the other way round,
 * that real answers match it, and fuzzes every operation against it (schemathesis); `npm run lint`
 * lints it (scripts/lint-openapi.sh, redocly.yaml).
 */
import { z } from 'zod';
import { jsonValue } from './requests';
import { ANSWERS } from './answers';
import type { Operation } from './operation';
import { BODIES, QUERIES } from './requests';

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/**
 * JSON Schemas of the named zod schemas (zod's own `z.toJSONSchema`), as the sender writes them
 * (`input`: defaults may be left out, a transform's input) or the service answers them (`output`).
 * One named schema used in another is a `$ref` to it; `JsonValue` is named too, being recursive.
 */
function schemas(named: Record<string, z.ZodType>, io: 'input' | 'output'): Record<string, unknown> {
  const registry = z.registry<{ id: string }>();
  for (const [id, schema] of Object.entries({ JsonValue: jsonValue, ...named })) registry.add(schema, { id });
  const { schemas: made } = z.toJSONSchema(registry, { io, uri: (id) => ref(id).$ref, override: tupleAsArray });
  return Object.fromEntries(Object.entries(made).map(([id, schema]) => [id, bare(schema)]));
}

/**
 * A tuple (`[name, value]`) said as an array of its items' types, of its length: schemathesis 4.32 reads
 * 2020-12's `prefixItems` as the older array form of `items`, which it then refuses as no schema.
 */
function tupleAsArray({ jsonSchema }: { jsonSchema: Record<string, unknown> }): void {
  const prefix = jsonSchema.prefixItems;
  if (!Array.isArray(prefix)) return;
  const kinds = [...new Map(prefix.map((item) => [JSON.stringify(item), item as unknown])).values()];
  delete jsonSchema.prefixItems;
  jsonSchema.items = kinds.length === 1 ? kinds[0] : { anyOf: kinds };
}

function answer(kind: Operation['answers'][number]) {
  if (kind === 'empty') return { description: 'Empty body' };
  if (kind === 'line')
    return { description: 'Why it was refused, one line', content: { 'text/plain': { schema: { type: 'string' } } } };
  if (kind === 'document')
    return { description: 'OpenAPI 3.1', content: { 'application/json': { schema: { type: 'object' } } } };
  if (kind === 'file')
    return {
      description: 'The bytes, as an attachment',
      content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } },
    };
  return { description: kind, content: { 'application/json': { schema: ref(kind) } } };
}

function operation(op: Operation) {
  const params = [...op.path.matchAll(/:(\w+)/g)].map(([, name]) => ({
    name,
    in: 'path',
    required: true,
    schema: { type: 'string' },
  }));
  const shape: Record<string, z.ZodType> = op.query ? QUERIES[op.query].shape : {};
  const query = Object.entries(shape).map(([name, schema]) => ({
    name,
    in: 'query',
    // Required unless it may be left out (optional, or with a default).
    required: !schema.safeParse(undefined).success,
    // An optional parameter is described by its type; `required: false` says it may be left out.
    schema: z.toJSONSchema(schema instanceof z.ZodOptional ? (schema.unwrap() as z.ZodType) : schema, { io: 'input' }),
  }));
  // With the admin token: the workspace it acts in (a key's is its own; src/domain/workspaces.ts).
  const workspace =
    op.access !== 'open' && !op.workspaceFromPath
      ? [{ name: 'X-Workspace-Id', in: 'header', required: false, schema: { type: 'string' } }]
      : [];
  const answers: Record<string, unknown> = Object.fromEntries(
    Object.entries(op.answers).map(([status, kind]) => [status, answer(kind)]),
  );
  const signedIn = op.access !== 'open';
  if (signedIn) answers[401] = answer('Error');
  // The workspace X-Workspace-Id names does not exist (src/workspaces/callers.ts).
  if (signedIn && !op.workspaceFromPath) answers[404] ??= answer('Error');
  // A credential whose role falls short of the operation's (src/domain/workspaces.ts).
  if (signedIn && op.access !== 'viewer') answers[403] = answer('Error');
  // Wrong credentials are throttled per client address (src/core/throttle.ts).
  if (signedIn || 401 in op.answers) answers[429] = answer('Error');
  return {
    operationId: op.operationId,
    summary: op.summary,
    // An open operation says it needs no credential (the webhook URL's token is in its path).
    security: signedIn ? [{ bearer: [] }] : [],
    ...(params.length + query.length + workspace.length > 0
      ? {
          parameters: [...params, ...query, ...workspace].map(({ schema, ...p }) => ({ ...p, schema: bare(schema) })),
        }
      : {}),
    ...(op.body === 'raw'
      ? { requestBody: { content: { '*/*': { schema: { type: 'string', format: 'binary' } } } } }
      : op.body
        ? { requestBody: { required: true, content: { 'application/json': { schema: ref(op.body) } } } }
        : {}),
    responses: answers,
  };
}

/** A JSON Schema without the `$schema` and `$id` keys `z.toJSONSchema` adds: the document says its dialect. */
function bare(schema: unknown): unknown {
  const { $schema: _dialect, $id: _id, ...rest } = schema as Record<string, unknown>;
  return rest;
}

/** The document of `operations` served at `baseUrl`, of the service's `version` (package.json's). */
export function openApiDocument(
  baseUrl: string,
  operations: readonly Operation[],
  version: string,
): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of operations) {
    const path = op.path.replace(/:(\w+)/g, '{$1}');
    (paths[path] ??= {})[op.method] = operation(op);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Webhook trigger service',
      version,
      description: 'Inbound webhook triggers for robots, and the management API (docs/api.md).',
    },
    servers: [{ url: baseUrl }],
    paths,
    components: {
      schemas: { ...schemas(ANSWERS, 'output'), ...schemas(BODIES, 'input') },
      securitySchemes: {
        bearer: {
          type: 'http',
          scheme: 'bearer',
          description:
            'The admin token (ADMIN_TOKEN; acts in the workspace named by X-Workspace-Id, or `default`) ' +
            "or a workspace's key",
        },
      },
    },
  };
}
