/**
 * No log line holds a webhook token: a 5xx on the webhook route logs the route, not the path; its error
 * under `err` (type, message, stack) with the request's id.
 */
import { startStack, type Stack } from './support/stack';

let stack: Stack;
beforeAll(async () => {
  // Temporal is not there: every delivery's start fails and is answered 503.
  stack = await startStack(
    { TEMPORAL_ADDRESS: '127.0.0.1:1', TEMPORAL_START_TIMEOUT_MS: '300', LOG_LEVEL: 'error' },
    { worker: false },
  );
});
afterAll(() => stack.close());

it('logs a failed delivery with its route and never its token', async () => {
  const robot = await stack.robotAtWork();
  const token = robot.webhookUrl.split('/').pop()!;
  const lines: string[] = [];
  const write = process.stderr.write.bind(process.stderr);
  const spy = jest
    .spyOn(process.stderr, 'write')
    .mockImplementation((chunk: string | Uint8Array, ...rest: unknown[]) => {
      lines.push(String(chunk));
      return write(chunk, ...(rest as []));
    });
  try {
    const res = await stack.send('POST', robot.webhookUrl, JSON.stringify({ a: 1 }), { 'X-Request-Id': 'failing-1' });
    expect(res.status).toBe(503);
    expect(res.headers.get('x-request-id')).toBe('failing-1');
  } finally {
    spy.mockRestore();
  }
  const failed = lines.filter((l) => l.includes('request failed'));
  expect(failed).toHaveLength(1);
  expect(failed[0]).toContain('/api/webhooks/:identifier/:token');
  // The error under pino's `err` (src/core/log.ts), as an object with its type, message and stack; the request's id.
  const line = JSON.parse(failed[0]) as Record<string, unknown>;
  expect(line).toMatchObject({
    level: 'error',
    requestId: 'failing-1',
    err: { type: expect.any(String), message: expect.any(String), stack: expect.any(String) },
  });
  expect(line).not.toHaveProperty('error');
  expect(lines.join('')).not.toContain(token);
});
