/**
 * Bodies are encrypted in Temporal (src/temporal/payload-codec.ts): a delivery's workflow input, as Temporal
 * stores it, holds ciphertext; an operator reads it through the receiver's codec endpoints
 * (src/codec/routes.ts), from the Temporal CLI with the admin token or from the Web UI with its key.
 */
import { Client, Connection } from '@temporalio/client';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { ENCRYPTED_ENCODING } from '../src/temporal/payload-codec';
import { startStack, type Stack } from './support/stack';
import { waitFor } from '../src/launch/os/wait';

const UI = 'http://localhost:8233';
const SECRET_BODY = JSON.stringify({ card: 'card-number-4242-4242', email: 'ann@example.com' });
let stack: Stack;
let raw: Client;
let workflowId: string;

beforeAll(async () => {
  stack = await startStack({ TEMPORAL_UI_URL: UI });
  // A client without the codec: it sees what Temporal stores.
  raw = new Client({ connection: await Connection.connect({ address: stack.config.temporal.address! }) });
  const robot = await stack.robotAtWork({ template: { to: '{{trigger.email}}' } });
  expect((await stack.send('POST', robot.webhookUrl, SECRET_BODY)).status).toBe(200);
  const runs = await waitFor(
    () => stack.runs(robot.robotId),
    (r) => r[0]?.status === 'succeeded',
  );
  expect(runs[0].steps[0].output).toEqual({ to: 'ann@example.com' });
  [{ workflowId }] = await stack.deliveries(robot.robotId);
});
afterAll(async () => {
  await raw?.connection.close();
  await stack?.close();
});

const inputOf = async () => {
  const { events } = await raw.workflow.getHandle(workflowId).fetchHistory();
  return events![0].workflowExecutionStartedEventAttributes!.input!.payloads!;
};
const asJson = (payloads: Awaited<ReturnType<typeof inputOf>>) => ({
  payloads: payloads.map((p) => ({
    metadata: Object.fromEntries(
      Object.entries(p.metadata ?? {}).map(([k, v]) => [k, Buffer.from(v).toString('base64')]),
    ),
    data: Buffer.from(p.data ?? []).toString('base64'),
  })),
});

/** The delivery body in a codec answer holding a delivery workflow's decoded input. */
async function bodyIn(answer: Response): Promise<string> {
  const [payload] = ((await answer.json()) as { payloads: Array<{ data: string }> }).payloads;
  return (JSON.parse(Buffer.from(payload.data, 'base64').toString()) as { body: { data: string } }).body.data;
}

it('stores the delivery in Temporal as ciphertext: no byte of the body in its history', async () => {
  const [input] = await inputOf();
  expect(Buffer.from(input.metadata!.encoding).toString()).toBe(ENCRYPTED_ENCODING);
  const history = JSON.stringify(await raw.workflow.getHandle(workflowId).fetchHistory());
  for (const secret of ['card-number-4242', 'ann@example.com', Buffer.from('ann@example.com').toString('base64')])
    expect(history).not.toContain(secret);
});

it("keeps a parser's error and a key a sender chose out of Temporal in clear (review N7)", async () => {
  const robot = await stack.robotAtWork();
  const dedup = { key: 'jsonPath', path: 'trigger.otp' };
  expect((await stack.api('PATCH', `/api/apps/${robot.appId}`, { dedup })).status).toBe(200);
  const otp = 'ann@example.com-otp-493817';
  expect((await stack.send('POST', robot.webhookUrl, JSON.stringify({ otp }))).status).toBe(200);
  // V8's message quotes a short body: "Unexpected token 'h', "hunter2" is not valid JSON".
  expect((await stack.send('POST', robot.webhookUrl, 'hunter2')).status).toBe(200);
  const deliveries = await waitFor(
    () => stack.deliveries(robot.robotId),
    (d) => d.length === 2 && d.every((x) => x.outcome !== 'received'),
  );
  const failed = deliveries.find((d) => d.outcome === 'failed');
  expect(failed.error).toMatch(/hunter2/); // the API, behind the admin token, still says why
  for (const d of deliveries) {
    expect(d.workflowId).not.toContain(otp);
    const history = JSON.stringify(await raw.workflow.getHandle(d.workflowId).fetchHistory());
    expect(history).not.toContain('hunter2');
    expect(history).not.toContain('ann@example.com');
  }
});

it('decodes the input for whoever has the admin token, and refuses anyone else', async () => {
  const body = JSON.stringify(asJson(await inputOf()));
  const post = (path: string, authorization?: string) =>
    fetch(`${stack.baseUrl}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(authorization ? { authorization } : {}) },
      body,
    });
  const decoded = await post('/codec/decode', `Bearer ${stack.config.adminToken}`);
  expect(decoded.status).toBe(200);
  expect(await bodyIn(decoded)).toBe(SECRET_BODY);
  expect((await post('/codec/decode')).status).toBe(401);
  expect((await post('/codec/decode', 'Bearer wrong-token-wrong-token')).status).toBe(401);
  expect((await post('/codec/not-the-key/decode')).status).toBe(401);
});

it("serves the Web UI's endpoint under its key, with CORS for the Web UI's origin only", async () => {
  const { webUiEndpoint } = await stack.client.json('GET', '/api/codec');
  expect(webUiEndpoint).toBe(`${stack.baseUrl}/codec/${stack.config.webUiKey}`);
  const preflight = (origin: string) =>
    fetch(`${webUiEndpoint}/decode`, {
      method: 'OPTIONS',
      headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'x-namespace' },
    });
  const fromUi = await preflight(UI);
  expect(fromUi.status).toBe(204);
  expect(fromUi.headers.get('access-control-allow-origin')).toBe(UI);
  expect(fromUi.headers.get('access-control-allow-headers')).toContain('x-namespace');
  expect((await preflight('https://evil.example')).headers.get('access-control-allow-origin')).toBeNull();
  const decoded = await fetch(`${webUiEndpoint}/decode`, {
    method: 'POST',
    headers: { origin: UI, 'content-type': 'application/json', 'x-namespace': 'default' },
    body: JSON.stringify(asJson(await inputOf())),
  });
  expect(decoded.status).toBe(200);
  expect(decoded.headers.get('access-control-allow-origin')).toBe(UI);
  expect(await bodyIn(decoded)).toBe(SECRET_BODY);
});

it('shows the delivery decoded in `temporal workflow show` given the codec endpoint, and ciphertext without', async () => {
  // Not execFileSync: the CLI calls the receiver of this very process.
  const show = async (...codec: string[]) =>
    (
      await promisify(execFile)(process.env.TEMPORAL_CLI_BIN!, [
        ...['workflow', 'show', '-w', workflowId, '--address', stack.config.temporal.address!, '-o', 'json'],
        ...codec,
      ])
    ).stdout;
  // The CLI's JSON gives each payload's data in base64: the input is read from it.
  const input = (json: string) => {
    type Shown = { events: Array<{ workflowExecutionStartedEventAttributes?: { input: { payloads: Payload[] } } }> };
    type Payload = { metadata: { encoding: string }; data: string };
    const [payload] = (JSON.parse(json) as Shown).events[0].workflowExecutionStartedEventAttributes!.input.payloads;
    return { encoding: Buffer.from(payload.metadata.encoding, 'base64').toString(), data: payload.data };
  };
  expect(input(await show()).encoding).toBe(ENCRYPTED_ENCODING);
  const codec = ['--codec-endpoint', `${stack.baseUrl}/codec`, '--codec-auth', `Bearer ${stack.config.adminToken}`];
  const decoded = input(await show(...codec));
  expect(decoded.encoding).toBe('json/plain');
  expect(JSON.parse(Buffer.from(decoded.data, 'base64').toString()).body.data).toBe(SECRET_BODY);
});
