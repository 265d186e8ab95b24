/**
 * Bodies are encrypted in Temporal (src/temporal/payload-codec.ts): a delivery's workflow input, as Temporal
 * stores it, holds ciphertext; an operator reads it through the receiver's codec endpoints
 * (src/codec/routes.ts), from the Temporal CLI with the admin token or from the Web UI with its key
 * (decode only, on the receiver's metrics port).
 */
import { Client } from '@temporalio/client';
import { connectTemporal } from '../src/temporal/socket-address';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { ENCRYPTED_ENCODING } from '../src/temporal/payload-codec';
import { startStack, type Stack } from './support/stack';
import { waitFor } from '../src/launch/os/wait';
import { freePort } from '../src/launch/os/ports';

const UI = 'http://localhost:8233';
const SECRET_BODY = JSON.stringify({ card: 'card-number-4242-4242', email: 'ann@example.com' });
let stack: Stack;
let raw: Client;
let workflowId: string;

beforeAll(async () => {
  stack = await startStack({ TEMPORAL_UI_URL: UI, RECEIVER_METRICS_PORT: String(await freePort()) });
  // A client without the codec: it sees what Temporal stores.
  raw = new Client({ connection: await connectTemporal(stack.config.temporal.address!) });
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

const post = (url: string, body: string, headers: Record<string, string> = {}) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });

it('decodes the input for whoever has the admin token, and refuses anyone else', async () => {
  const body = JSON.stringify(asJson(await inputOf()));
  const admin = { authorization: `Bearer ${stack.config.adminToken}` };
  const decoded = await post(`${stack.baseUrl}/codec/decode`, body, admin);
  expect(decoded.status).toBe(200);
  expect(await bodyIn(decoded)).toBe(SECRET_BODY);
  expect((await post(`${stack.baseUrl}/codec/decode`, body)).status).toBe(401);
  expect(
    (await post(`${stack.baseUrl}/codec/decode`, body, { authorization: 'Bearer wrong-token-wrong' })).status,
  ).toBe(401);
});

it("serves the Web UI's endpoint on the metrics port under its key, with CORS for the Web UI's origin only", async () => {
  const { webUiEndpoint } = await stack.client.call('codecEndpoint');
  expect(webUiEndpoint).toBe(`http://localhost:${stack.config.receiverMetricsPort}/codec/${stack.config.webUiKey}`);
  expect(stack.metricsUrl).toBe(`http://127.0.0.1:${stack.config.receiverMetricsPort}`);
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
  const body = JSON.stringify(asJson(await inputOf()));
  const decoded = await post(`${webUiEndpoint}/decode`, body, { origin: UI, 'x-namespace': 'default' });
  expect(decoded.status).toBe(200);
  expect(decoded.headers.get('access-control-allow-origin')).toBe(UI);
  expect(await bodyIn(decoded)).toBe(SECRET_BODY);
  expect((await post(`${stack.metricsUrl}/codec/not-the-key-not-the-key/decode`, body)).status).toBe(401);
});

it("seals only with the admin token: the Web UI key opens decode alone, and nothing on the senders' port (review N6)", async () => {
  const plain = JSON.stringify({
    payloads: [{ metadata: { encoding: Buffer.from('json/plain').toString('base64') }, data: 'e30=' }],
  });
  const key = stack.config.webUiKey;
  // Under the Web UI's key, encode is refused wherever it is asked: a sealed payload is what workers trust.
  expect((await post(`${stack.metricsUrl}/codec/${key}/encode`, plain, { origin: UI })).status).toBe(404);
  expect((await post(`${stack.baseUrl}/codec/${key}/encode`, plain)).status).toBe(404);
  // Nor does the senders' port decode under it.
  expect((await post(`${stack.baseUrl}/codec/${key}/decode`, JSON.stringify(asJson(await inputOf())))).status).toBe(
    404,
  );
  // The admin token seals, on the service's port.
  const admin = { authorization: `Bearer ${stack.config.adminToken}` };
  const sealed = await post(`${stack.baseUrl}/codec/encode`, plain, admin);
  expect(sealed.status).toBe(200);
  const [payload] = ((await sealed.json()) as { payloads: Array<{ metadata: Record<string, string> }> }).payloads;
  expect(Buffer.from(payload.metadata.encoding, 'base64').toString()).toBe(ENCRYPTED_ENCODING);
  expect((await post(`${stack.baseUrl}/codec/encode`, plain)).status).toBe(401);
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
