/**
 * The OpenAPI document (src/contract/openapi.ts): served behind the admin token, naming exactly the routes the
 * service has (each by its name in the contract, the webhook URL's open to all), matched by real answers, and
 * fuzzed with schemathesis: no input the document allows or forbids gets a 5xx or an answer it does not
 * describe, and the service still answers after.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { receiverParts, routers } from '../src/runtime/app';
import { silentLogger } from '../src/core/log';
import { appAnswer, connectionAnswer, errorAnswer, robotAnswer } from '../src/contract/answers';
import { deliveriesPageAnswer, deliveryAnswer, runAnswer, runsPageAnswer } from '../src/contract/history-answers';
import { MANAGEMENT } from '../src/contract/management';
import { OPERATIONS } from '../src/runtime/operations';
import { startStack, type Stack } from './support/stack';
import { waitFor } from '../src/launch/os/wait';

let stack: Stack;
beforeAll(async () => {
  // The fuzzer tries many wrong codec keys: none of its requests should be throttled.
  stack = await startStack({ AUTH_FAILURES_PER_MINUTE: '100000' });
});
afterAll(() => stack.close());

const document = async () => {
  const res = await fetch(`${stack.baseUrl}/api/openapi.json`, {
    headers: { authorization: `Bearer ${stack.config.adminToken}` },
  });
  expect(res.status).toBe(200);
  return (await res.json()) as {
    openapi: string;
    info: { version: string };
    paths: Record<string, Record<string, { operationId?: string; security?: unknown[] }>>;
    components: { schemas: Record<string, unknown> };
  };
};

/** `get /api/robots/{id}`: an operation's method and path as the document writes them. */
const routeOf = (op: { method: string; path: string }) => `${op.method} ${op.path.replace(/:(\w+)/g, '{$1}')}`;

it('names exactly the routes the service has', async () => {
  const doc = await document();
  expect(doc.openapi).toBe('3.1.0');
  const documented = Object.entries(doc.paths).flatMap(([path, ops]) =>
    Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`),
  );
  const served = routers(receiverParts({ ...stack, log: silentLogger, metrics: stack.metrics.receiver }))
    .flatMap((r) => r.stack)
    // The webhook URL's catch-all (`router.all`: every method, answered 405) is not an operation.
    .filter((layer) => !layer.methods.includes('ACL'))
    .flatMap((layer) =>
      layer.methods
        // HEAD answers as GET; OPTIONS are the codec endpoints' CORS preflights.
        .filter((m) => m !== 'HEAD' && m !== 'OPTIONS')
        .map((m) => `${m} ${String(layer.path).replace(/:(\w+)/g, '{$1}')}`),
    );
  expect(documented.sort()).toEqual([...new Set(served)].sort());
  expect(Object.keys(doc.components.schemas)).toEqual(
    expect.arrayContaining(['Robot', 'Run', 'Delivery', 'CreateRobot', 'Error']),
  );
});

it("names each operation as the contract does, says the package's version, and marks the open ones", async () => {
  const doc = await document();
  const documented = Object.entries(doc.paths).flatMap(([path, ops]) =>
    Object.entries(ops).map(([method, op]) => ({ route: `${method} ${path}`, ...op })),
  );
  const ids = documented.map((op) => op.operationId);
  expect(new Set(ids).size).toBe(ids.length);
  // Each is the name its declaration has: the management API's are the keys of MANAGEMENT.
  const idOf = Object.fromEntries(documented.map((op) => [op.route, op.operationId]));
  expect(idOf).toEqual(Object.fromEntries(OPERATIONS.map((op) => [routeOf(op), op.operationId])));
  for (const [name, op] of Object.entries(MANAGEMENT)) expect(idOf[routeOf(op)]).toBe(name);
  const pkg = JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'package.json'), 'utf8')) as { version: string };
  expect(doc.info.version).toBe(pkg.version);
  // The webhook URL needs no credential (its token is in the path): `security: []`; the rest the bearer's.
  const open = OPERATIONS.filter((op) => op.access === 'open').map(routeOf);
  expect(open).toHaveLength(3);
  for (const op of documented)
    expect({ route: op.route, security: op.security }).toEqual({
      route: op.route,
      security: open.includes(op.route) ? [] : [{ bearer: [] }],
    });
});

it('describes real answers exactly', async () => {
  const app = await stack.api('POST', '/api/apps', { name: 'A', supportsInboundTrigger: true, bodyFormat: 'json' });
  appAnswer.parse(app.body);
  appAnswer.parse((await stack.api('GET', `/api/apps/${app.body.id}`)).body);
  connectionAnswer.parse(
    (
      await stack.api('POST', '/api/connections', {
        provider: 'stripe',
        name: 'P',
        signingSecret: 'whsec_' + 'x'.repeat(24),
      })
    ).body,
  );
  const robot = await stack.api('POST', '/api/robots', {
    name: 'R',
    trigger: { appId: app.body.id },
    steps: [{ name: 's', type: 'compose', template: { a: 1 } }],
  });
  robotAnswer.parse(robot.body);
  const started = robotAnswer.parse((await stack.api('POST', `/api/robots/${robot.body.id}/start`)).body);
  expect(
    (await stack.send('POST', started.trigger.card!.webhookUrl!, JSON.stringify({ big: 'x'.repeat(2000) }))).status,
  ).toBe(200);
  const runs = await waitFor(
    () => stack.api('GET', `/api/robots/${robot.body.id}/runs`),
    (r) => r.body.runs[0]?.status === 'succeeded',
  );
  expect(runsPageAnswer.parse(runs.body).runs[0]).toMatchObject({ triggerTruncated: true });
  runAnswer.parse((await stack.api('GET', `/api/runs/${runs.body.runs[0].id}`)).body);
  const deliveries = deliveriesPageAnswer.parse(
    (await stack.api('GET', `/api/robots/${robot.body.id}/deliveries`)).body,
  );
  deliveryAnswer.parse((await stack.api('GET', `/api/deliveries/${deliveries.deliveries[0].id}`)).body);
  robotAnswer.parse((await stack.api('GET', `/api/robots/${robot.body.id}`)).body);
  robotAnswer.parse((await stack.api('POST', `/api/robots/${robot.body.id}/stop`)).body);
  errorAnswer.parse((await stack.api('GET', '/api/robots/nope')).body);
  errorAnswer.parse((await stack.api('POST', '/api/robots', { name: '' })).body);
});

/** Runs schemathesis; resolves with its exit code and output. */
function schemathesis(args: string[]): Promise<{ code: number; output: string }> {
  const bin = process.env.SCHEMATHESIS_BIN;
  if (!bin) throw new Error('SCHEMATHESIS_BIN is not set: run the tests with `npm test`, which installs it');
  return new Promise((resolve) => {
    // In a folder of its own: schemathesis keeps a cache (`.schemathesis/`) where it runs.
    const cwd = fs.mkdtempSync(path.join(os.tmpdir(), 'schemathesis-'));
    execFile(
      bin,
      args,
      { cwd, maxBuffer: 64 * 1024 * 1024, env: { ...process.env, NO_COLOR: '1' } },
      (err, stdout, stderr) => {
        fs.rmSync(cwd, { recursive: true, force: true });
        resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, output: `${stdout}\n${stderr}` });
      },
    );
  });
}

it('answers every input the document allows or forbids without a 5xx, as it documents', async () => {
  // The document is behind the admin token: schemathesis reads it from a file and calls the service.
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'openapi-')), 'openapi.json');
  fs.writeFileSync(file, JSON.stringify(await document()));
  const { code, output } = await schemathesis([
    'run',
    file,
    '--url',
    stack.baseUrl,
    '--checks',
    'not_a_server_error,status_code_conformance,content_type_conformance,response_schema_conformance',
    '--header',
    `Authorization: Bearer ${stack.config.adminToken}`,
    '--max-examples',
    '25',
    '--seed',
    '1',
    // One worker: with two threads, Python 3.11 has failed inside hypothesis (an AST recursion error).
    '--workers',
    '1',
    '--phases',
    'examples,coverage,fuzzing',
    '--request-timeout',
    '30',
  ]);
  if (code !== 0) throw new Error(`schemathesis found failures (exit ${code}):\n${output.slice(-20_000)}`);
  expect(output).toMatch(/passed/i);
  expect((await fetch(`${stack.metricsUrl}/healthz`)).status).toBe(200); // still answering
});
