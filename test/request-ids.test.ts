/**
 * Request ids and the access log (src/core/request-ids.ts, src/core/access-log.ts; docs/operations.md):
 * an `X-Request-Id` sent is echoed and is in every log line of its request, one is made when none or
 * an insane one is sent, and each request has one access line, a webhook URL's token masked in it.
 */
import { capturedLogLines } from './support/log-capture';
import { installTestRuntime, startStack, type Stack } from './support/stack';
import { waitFor } from '../src/launch/os/wait';
import { REQUEST_ID_MAX_CHARS } from '../src/domain/limits';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const { lines, destination } = capturedLogLines();
let stack: Stack;
beforeAll(async () => {
  await installTestRuntime({ logLevel: 'info', destination });
  stack = await startStack({ LOG_LEVEL: 'info' });
});
afterAll(() => stack.close());

const linesOf = (requestId: string) =>
  waitFor(
    () => lines.filter((l) => l.requestId === requestId),
    (found) => found.some((l) => l.msg === 'request'),
  );

it('echoes the id a sender gave and writes it in every line of that request: the refusal and the access line', async () => {
  const connection = await stack.client.call('createConnection', {
    body: { provider: 'stripe', name: 'P', signingSecret: 'whsec_' + 'requestid'.repeat(3) },
  });
  const robot = await stack.client.call('createRobot', {
    body: { name: 'R', trigger: { connectionId: connection.id }, steps: [] },
  });
  const url = (await stack.client.call('start', { params: { id: robot.id } })).trigger.card!.webhookUrl!;
  const token = url.split('/').pop()!;
  const requestId = 'sender-req-42';
  const res = await stack.send('POST', url, JSON.stringify({ id: 'evt_1' }), { 'X-Request-Id': requestId });
  expect(res.status).toBe(400); // no Stripe-Signature
  expect(res.headers.get('x-request-id')).toBe(requestId);

  const about = await linesOf(requestId);
  const path = new URL(url).pathname.replace(token, `…${token.slice(-4)}`);
  expect(about).toEqual([
    expect.objectContaining({ level: 'info', name: 'receiver', msg: expect.stringMatching(/^refused: signature/) }),
    expect.objectContaining({
      level: 'info',
      time: expect.any(String),
      name: 'receiver',
      requestId,
      msg: 'request',
      method: 'POST',
      path,
      status: 400,
      bytes: Buffer.byteLength(res.text),
      durationMs: expect.any(Number),
      robotId: robot.id,
      workspaceId: 'default',
    }),
  ]);
  expect(JSON.stringify(lines)).not.toContain(token);
});

it('makes an id when none is sent, or one it does not take, and a fresh one each request', async () => {
  const none = await stack.send('GET', `${stack.baseUrl}/api/me`, undefined, {
    authorization: `Bearer ${stack.config.adminToken}`,
  });
  const again = await stack.send('GET', `${stack.baseUrl}/api/me`);
  const made = [none.headers.get('x-request-id')!, again.headers.get('x-request-id')!];
  for (const id of made) expect(id).toMatch(UUID);
  expect(made[0]).not.toBe(made[1]);
  expect(await linesOf(made[1])).toEqual([
    expect.objectContaining({ msg: 'request', method: 'GET', path: '/api/me', status: 401, requestId: made[1] }),
  ]);

  for (const insane of ['x'.repeat(REQUEST_ID_MAX_CHARS + 1), 'two words', 'quote"d', 'a;b']) {
    const res = await stack.send('GET', `${stack.baseUrl}/api/nothing`, undefined, { 'X-Request-Id': insane });
    const id = res.headers.get('x-request-id')!;
    expect(id).toMatch(UUID);
    expect(await linesOf(id)).toEqual([expect.objectContaining({ msg: 'request', status: 404, path: '/api/nothing' })]);
    expect(JSON.stringify(lines)).not.toContain(insane);
  }
  expect(REQUEST_ID_MAX_CHARS).toBe(128);
  const longest = 'x'.repeat(REQUEST_ID_MAX_CHARS);
  const res = await stack.send('GET', `${stack.baseUrl}/api/nothing`, undefined, { 'X-Request-Id': longest });
  expect(res.headers.get('x-request-id')).toBe(longest);
});

it("logs a delivery taken with its ids and size, the token masked even in a path's other case", async () => {
  const robot = await stack.robotAtWork();
  const token = robot.webhookUrl.split('/').pop()!;
  const shouted = robot.webhookUrl.replace('/api/webhooks/', '/API/WEBHOOKS/');
  const res = await stack.send('POST', shouted, JSON.stringify({ a: 1 }), { 'X-Request-Id': 'shouted-1' });
  expect(res.status).toBe(200);
  const [access] = await linesOf('shouted-1');
  expect(access).toMatchObject({
    msg: 'request',
    method: 'POST',
    path: new URL(shouted).pathname.replace(token, `…${token.slice(-4)}`),
    status: 200,
    bytes: 0,
    robotId: robot.robotId,
    deliveryId: expect.any(String),
  });
  expect(JSON.stringify(lines)).not.toContain(token);
  // The delivery inspector masks it the same way.
  const [delivery] = await waitFor(
    () => stack.deliveries(robot.robotId),
    (d) => d.length === 1,
  );
  expect(delivery.id).toBe(access.deliveryId);
  const inspected = await stack.client.call('getDelivery', { params: { id: delivery.id } });
  expect(JSON.stringify(inspected)).not.toContain(token);
});

it("counts an answer's bytes as sent: a compressed answer's compressed length", async () => {
  const res = await fetch(`${stack.baseUrl}/api/openapi.json`, {
    headers: { authorization: `Bearer ${stack.config.adminToken}`, 'accept-encoding': 'gzip', 'x-request-id': 'gz-1' },
  });
  expect(res.headers.get('content-encoding')).toBe('gzip');
  const sent = Number(res.headers.get('content-length'));
  const [access] = await linesOf('gz-1');
  expect(access).toMatchObject({ msg: 'request', path: '/api/openapi.json', status: 200, bytes: sent });
  expect(sent).toBeLessThan((await res.text()).length);
});
