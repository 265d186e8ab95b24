/** The service's logger (src/core/log.ts) and the Temporal SDK's lines through it (src/temporal/sdk-log.ts). */
import { ApplicationFailure } from '@temporalio/common';
import { PassThrough } from 'node:stream';
import { UNPARSABLE_BODY } from '../../src/domain/types';
import { createLogger, type LogLevel } from '../../src/core/log';
import { sdkLogger } from '../../src/temporal/sdk-log';
import type Koa from 'koa';
import { requestIdOf, requestIds } from '../../src/core/request-ids';
import { accessLog } from '../../src/core/access-log';
import { REQUEST_ID_MAX_CHARS } from '../../src/domain/limits';

function captured(level: LogLevel = 'debug') {
  const out = new PassThrough();
  const lines: Array<Record<string, unknown>> = [];
  out.on('data', (chunk: Buffer) => {
    for (const line of chunk.toString('utf8').split('\n'))
      if (line.trim()) lines.push(JSON.parse(line) as Record<string, unknown>);
  });
  return { log: createLogger('worker', level, { format: 'json', destination: out }), lines };
}

it('writes one JSON object per line with level, time, name, message and fields; children add theirs', () => {
  const { log, lines } = captured('info');
  log.debug('not shown');
  log.child({ deliveryId: 'd1', robotId: 'r1' }).info('taken', { runCount: 3 });
  expect(lines).toEqual([
    {
      level: 'info',
      time: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      name: 'worker',
      deliveryId: 'd1',
      robotId: 'r1',
      runCount: 3,
      msg: 'taken',
    },
  ]);
});

it('never writes a field named like a secret or a body, at the top or one level down', () => {
  const { log, lines } = captured();
  log.warn('oops', {
    token: 't0k3n',
    signingSecret: 'whsec_1',
    body: '{"card":1}',
    request: { authorization: 'Bearer x', token: 'y' },
  });
  const text = JSON.stringify(lines);
  for (const secret of ['t0k3n', 'whsec_1', 'card', 'Bearer x', '"y"']) expect(text).not.toContain(secret);
  expect(lines[0]).toMatchObject({ token: '[redacted]', request: { authorization: '[redacted]' } });
});

it("lowers the SDK's warning for an expected failure to debug, without its message or stack", () => {
  const { log, lines } = captured('info');
  const sdk = sdkLogger(log);
  const parse = ApplicationFailure.nonRetryable(`Unexpected token 'c', "card-4242" is not valid JSON`, UNPARSABLE_BODY);
  sdk.warn('Workflow failed', { workflowId: 'delivery:x', error: parse });
  expect(lines).toEqual([]);

  const debug = captured('debug');
  sdkLogger(debug.log).warn('Workflow failed', { workflowId: 'delivery:x', error: parse });
  expect(debug.lines).toEqual([
    expect.objectContaining({ level: 'debug', msg: 'Workflow failed', err: { type: UNPARSABLE_BODY } }),
  ]);
  expect(JSON.stringify(debug.lines)).not.toContain('card-4242');
});

it('keeps the level, message and stack of anything unexpected', () => {
  const { log, lines } = captured('info');
  sdkLogger(log).error('Activity failed', { activityType: 'prepareDelivery', error: new Error('connection lost') });
  sdkLogger(log).info('Worker state changed', { state: 'RUNNING' });
  expect(lines).toEqual([
    expect.objectContaining({
      level: 'error',
      msg: 'Activity failed',
      activityType: 'prepareDelivery',
      err: expect.objectContaining({
        message: 'connection lost',
        stack: expect.stringContaining('Error: connection lost'),
      }),
    }),
    expect.objectContaining({ level: 'info', msg: 'Worker state changed', state: 'RUNNING' }),
  ]);
});

it("lowers the SDK's warning for a workflow that logged its expected failure, though the error arrives as a bare copy", () => {
  const { log, lines } = captured('info');
  const sdk = sdkLogger(log);
  sdk.info('delivery failed: the body does not parse', {
    workflowId: 'delivery:a',
    reason: 'invalid JSON',
    expectedFailure: UNPARSABLE_BODY,
  });
  // From the workflow's thread: a structured-clone copy, with its message (quoting the body) but no type.
  sdk.warn('Workflow failed', {
    workflowId: 'delivery:a',
    error: new Error(`Unexpected token 'c', "card-4242" is not valid JSON`),
  });
  sdk.warn('Workflow failed', { workflowId: 'delivery:b', error: new Error('robot r1 no longer exists') });
  expect(lines.map((l) => [l.level, l.msg, l.workflowId])).toEqual([
    ['info', 'delivery failed: the body does not parse', 'delivery:a'],
    ['warn', 'Workflow failed', 'delivery:b'],
  ]);
  expect(JSON.stringify(lines)).not.toContain('card-4242');
});

it('writes an error under `err` as pino does: its type, message and stack', () => {
  const { log, lines } = captured('info');
  log.warn('a step failed', { robotId: 'r1', err: new TypeError('no such robot') });
  expect(lines).toEqual([
    expect.objectContaining({
      msg: 'a step failed',
      robotId: 'r1',
      err: expect.objectContaining({
        type: 'TypeError',
        message: 'no such robot',
        stack: expect.stringContaining('TypeError: no such robot'),
      }),
    }),
  ]);
  expect(lines[0]).not.toHaveProperty('error');
});

it("adds the request's id to every line written while it is worked, and to no other", async () => {
  const { log, lines } = captured('info');
  const ctx = { get: () => 'req-7', set: () => undefined, state: {} } as unknown as Koa.Context;
  await requestIds()(ctx, async () => {
    log.info('inside');
    await new Promise((resolve) => setImmediate(resolve));
    log.child({ robotId: 'r1' }).warn('later, still inside');
  });
  log.info('outside');
  expect(lines.map((l) => [l.msg, l.requestId])).toEqual([
    ['inside', 'req-7'],
    ['later, still inside', 'req-7'],
    ['outside', undefined],
  ]);
});

it('takes a sane request id as it is and makes one for any other', () => {
  expect(requestIdOf('0f8fad5b-d9cb-469f-a165-70867728950e')).toBe('0f8fad5b-d9cb-469f-a165-70867728950e');
  expect(requestIdOf('Root=1-5759e988+bd86/2e3f:a.b_c')).toBe('Root=1-5759e988+bd86/2e3f:a.b_c');
  expect(requestIdOf('x'.repeat(REQUEST_ID_MAX_CHARS))).toBe('x'.repeat(REQUEST_ID_MAX_CHARS));
  const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
  for (const insane of ['', 'x'.repeat(REQUEST_ID_MAX_CHARS + 1), 'a b', 'a\u001b[31m', 'a"b', 'id-1, id-2', 'é'])
    expect(requestIdOf(insane)).toMatch(uuid);
});

it('writes one access line per request at info, its token masked, and none below info', async () => {
  const request = () =>
    ({
      method: 'POST',
      path: '/api/webhooks/custom:a1/tok-abcdefgh1234',
      status: 200,
      body: '',
      response: { get: () => '0', length: 0 },
      state: {},
    }) as unknown as Koa.Context;
  const atInfo = captured('info');
  const atWarn = captured('warn');
  await accessLog(atInfo.log)(request(), () => Promise.resolve());
  await accessLog(atWarn.log)(request(), () => Promise.resolve());
  expect(atInfo.lines).toEqual([
    expect.objectContaining({ msg: 'request', method: 'POST', path: '/api/webhooks/custom:a1/…1234', status: 200 }),
  ]);
  expect(atWarn.lines).toEqual([]);
  expect(atWarn.log.enabled('info')).toBe(false);
  expect(atWarn.log.enabled('warn')).toBe(true);
});
