/**
 * Bad input on the real stack, each with its documented outcome, and the service still up after
 * it. (Malformed JSON, XML and CSV, XML bombs, external entities and invalid UTF-8 are in
 * formats.test.ts; 413 and wrong, short and overlong tokens in webhooks.test.ts.)
 */
import net from 'node:net';
import { startStack, type Stack } from './support/stack';
import { waitFor } from '../src/launch/os/wait';
import { MAX_NESTING_DEPTH } from '../src/domain/limits';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack.close());
afterEach(async () => {
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  expect((await fetch(`${stack.metricsUrl}/healthz`)).status).toBe(200);
});

const nestedJson = (depth: number) => '{"a":'.repeat(depth) + '"end"' + '}'.repeat(depth);

it('runs a 100-level nested JSON body with its data intact', async () => {
  const robot = await stack.robotAtWork({ template: { deep: `{{trigger${'.a'.repeat(100)}}}`, whole: '{{trigger}}' } });
  expect((await stack.send('POST', robot.webhookUrl, nestedJson(100))).status).toBe(200);
  const [run] = await waitFor(
    () => stack.runs(robot.robotId),
    (r) => r[0]?.status === 'succeeded',
  );
  expect(run.trigger).toEqual(JSON.parse(nestedJson(100)));
  expect(run.steps[0].output).toEqual({ deep: 'end', whole: JSON.parse(nestedJson(100)) });
});

it(`answers 200 to a body nested deeper than ${MAX_NESTING_DEPTH} levels and records the delivery as failed, with no run`, async () => {
  const robot = await stack.robotAtWork();
  expect((await stack.send('POST', robot.webhookUrl, nestedJson(100_000))).status).toBe(200);
  const [delivery] = await waitFor(
    () => stack.deliveries(robot.robotId),
    (d) => d.length > 0,
  );
  expect(delivery).toMatchObject({
    outcome: 'failed',
    error: `invalid JSON: nested deeper than ${MAX_NESTING_DEPTH} levels`,
  });
  // The next delivery of the same robot runs: the worker was not stuck on the deep one.
  await stack.send('POST', robot.webhookUrl, '{"next":1}');
  const runs = await waitFor(
    () => stack.runs(robot.robotId),
    (r) => r[0]?.status === 'succeeded',
  );
  expect(runs.map((r) => r.trigger)).toEqual([{ next: 1 }]);
});

it('keeps __proto__ and constructor keys as plain data, from the body to the stored run and the step output', async () => {
  const robot = await stack.robotAtWork({
    template: {
      polluted: '{{trigger.__proto__.polluted}}',
      prototype: '{{trigger.constructor.prototype.polluted}}',
      inherited: '{{trigger.toString}}',
    },
  });
  const body = '{"__proto__":{"polluted":"own 1"},"constructor":{"prototype":{"polluted":"own 2"}}}';
  expect((await stack.send('POST', robot.webhookUrl, body)).status).toBe(200);
  const [run] = await waitFor(
    () => stack.runs(robot.robotId),
    (r) => r[0]?.status === 'succeeded',
  );
  expect(Object.keys(run.trigger)).toEqual(['__proto__', 'constructor']);
  expect(run.trigger.polluted).toBeUndefined();
  expect(run.steps[0].output).toEqual({ polluted: 'own 1', prototype: 'own 2', inherited: '' });
});

/** Sends one raw HTTP request and reads the answer until the server closes the connection. */
function rawRequest(head: string): Promise<string> {
  const { hostname, port } = new URL(stack.baseUrl);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname, () => socket.end(head));
    let answer = '';
    socket.on('data', (chunk) => (answer += chunk.toString('latin1')));
    socket.on('close', () => resolve(answer));
    socket.on('error', reject);
  });
}

it('answers 431 to request headers over 16 KiB, and starts nothing', async () => {
  const robot = await stack.robotAtWork();
  const { pathname } = new URL(robot.webhookUrl);
  const body = '{"a":1}';
  const answer = await rawRequest(
    `POST ${pathname} HTTP/1.1\r\nHost: x\r\nX-Padding: ${'p'.repeat(20 * 1024)}\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
  );
  expect(answer).toMatch(/^HTTP\/1\.1 431 /);
  // A normal delivery after it is the only one recorded.
  await stack.send('POST', robot.webhookUrl, '{"b":2}');
  const runs = await waitFor(
    () => stack.runs(robot.robotId),
    (r) => r[0]?.status === 'succeeded',
  );
  expect(runs.map((r) => r.trigger)).toEqual([{ b: 2 }]);
  expect(await stack.deliveries(robot.robotId)).toHaveLength(1);
});
