/** Body formats on the real stack: always the app's format, whatever the Content-Type says. */
import { startStack, type Stack } from './support/stack';
import { createHash } from 'node:crypto';
import { waitFor } from '../src/launch/os/wait';
import type { RobotSpec } from '../src/client/api-client';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack.close());

const settled = (robotId: string) =>
  waitFor(
    () => stack.deliveries(robotId),
    (d) => d.length > 0,
  );

/** Posts a body and waits until its delivery is recorded and every run it made has ended. */
async function deliver(
  bodyFormat: string,
  body: string,
  template: RobotSpec['template'] = { data: '{{trigger}}' },
  contentType = 'application/json',
) {
  const robot = await stack.robotAtWork({ bodyFormat, template });
  const res = await stack.send('POST', robot.webhookUrl, body, { 'content-type': contentType });
  expect(res.status).toBe(200);
  const [delivery] = await settled(robot.robotId);
  const runs = await waitFor(
    () => stack.runs(robot.robotId),
    (r) => r.length === (delivery.runCount ?? 0) && r.every((x) => x.status !== 'running'),
  );
  return { robot, delivery, runs: runs.reverse() };
}

describe('xml', () => {
  it('makes the root element the top key, keeps text as sent, attributes under @, repeats as arrays', async () => {
    const xml =
      '<?xml version="1.0"?><order currency="EUR"><id>007</id><item sku="A">Pen</item><item sku="B">Ink</item><note/></order>';
    const { runs } = await deliver('xml', xml, {
      id: '{{trigger.order.id}}',
      currency: '{{trigger.order.@currency}}',
      second: '{{trigger.order.item[1].#text}}',
    });
    expect(runs).toHaveLength(1);
    expect(runs[0].trigger).toEqual({
      order: {
        '@currency': 'EUR',
        id: '007',
        item: [
          { '@sku': 'A', '#text': 'Pen' },
          { '@sku': 'B', '#text': 'Ink' },
        ],
        note: '',
      },
    });
    expect(runs[0].steps[0].output).toEqual({ id: '007', currency: 'EUR', second: 'Ink' });
  });

  it.each([
    [
      'billion laughs',
      '<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">]><lolz>&lol2;</lolz>',
    ],
    ['an external entity', '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><x>&xxe;</x>'],
  ])('refuses %s: no run, the delivery failed, and the service still answers', async (_what, xml) => {
    const { delivery, runs } = await deliver('xml', xml);
    expect(runs).toEqual([]);
    expect(delivery).toMatchObject({ outcome: 'failed', error: 'invalid XML: entity declarations are not accepted' });
    expect((await fetch(`${stack.metricsUrl}/healthz`)).status).toBe(200);
  });
});

describe('csv', () => {
  it('makes one run per row, the columns as trigger data', async () => {
    const { delivery, runs } = await deliver(
      'csv',
      'email,name\nann@example.com,Ann\nbob@example.com,Bob\n',
      { to: '{{trigger.email}}' },
      'application/json',
    );
    expect(delivery).toMatchObject({ outcome: 'processed', runCount: 2, format: 'csv' });
    expect(runs.map((r) => r.trigger)).toEqual([
      { email: 'ann@example.com', name: 'Ann' },
      { email: 'bob@example.com', name: 'Bob' },
    ]);
    expect(runs.map((r) => r.steps[0].output)).toEqual([{ to: 'ann@example.com' }, { to: 'bob@example.com' }]);
  });

  it('handles quotes, embedded commas and newlines, a BOM, CRLF and blank lines', async () => {
    const csv = '\uFEFFname,address\r\n"Doe, Jane","1 Main St\r\nApt ""B"""\r\n\r\nBob,2 Side St\r\n\r\n';
    const { runs } = await deliver('csv', csv);
    expect(runs.map((r) => r.trigger)).toEqual([
      { name: 'Doe, Jane', address: '1 Main St\r\nApt "B"' },
      { name: 'Bob', address: '2 Side St' },
    ]);
  });

  it('makes no run for a header without rows', async () => {
    const { delivery, runs } = await deliver('csv', 'email,name\r\n');
    expect(delivery).toMatchObject({ outcome: 'processed', runCount: 0 });
    expect(runs).toEqual([]);
  });

  it('makes no run at all when a row half way does not parse', async () => {
    const { delivery, runs } = await deliver('csv', 'a,b\n1,2\n"3,4\n');
    expect(runs).toEqual([]);
    expect(delivery).toMatchObject({ outcome: 'failed', error: expect.stringMatching(/^invalid CSV/) });
  });
});

describe('plain text', () => {
  it('gives { text: <the body> }, even when the body looks like JSON', async () => {
    const { runs } = await deliver('text', '{"not":"parsed"}\nsecond line', { echo: 'got: {{trigger.text}}' });
    expect(runs[0].trigger).toEqual({ text: '{"not":"parsed"}\nsecond line' });
    expect(runs[0].steps[0].output).toEqual({ echo: 'got: {"not":"parsed"}\nsecond line' });
  });
});

describe('form', () => {
  it('reads a urlencoded form as PHP and Mailchimp send it: nested keys, arrays, repeated names', async () => {
    const body = 'type=subscribe&data[merges][FNAME]=Ann&data[email]=ann%40example.com&tags[]=a&tags[]=b&n=1&n=2';
    const { runs } = await deliver('form', body, { name: '{{trigger.data.merges.FNAME}}' }, 'text/plain');
    expect(runs[0].trigger).toEqual({
      type: 'subscribe',
      data: { merges: { FNAME: 'Ann' }, email: 'ann@example.com' },
      tags: ['a', 'b'],
      n: ['1', '2'],
    });
    expect(runs[0].steps[0].output).toEqual({ name: 'Ann' });
  });

  it('reads a multipart form (SendGrid Inbound Parse, Mailgun routes): fields, and files by name, size and digest', async () => {
    const form = new FormData();
    form.append('from', 'Ann <ann@example.com>');
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0xff, 0x00]);
    form.append('attachment1', new Blob([png], { type: 'image/png' }), 'logo.png');
    const request = new Request('http://x/', { method: 'POST', body: form });
    const body = Buffer.from(await request.arrayBuffer());
    const robot = await stack.robotAtWork({ bodyFormat: 'form', template: { from: '{{trigger.from}}' } });
    const contentType = request.headers.get('content-type')!;
    expect((await stack.send('POST', robot.webhookUrl, body, { 'content-type': contentType })).status).toBe(200);
    const runs = await waitFor(
      () => stack.runs(robot.robotId),
      (r) => r.length === 1 && r[0].status === 'succeeded',
    );
    const sha256 = createHash('sha256').update(png).digest('hex');
    expect(runs[0].trigger).toEqual({
      from: 'Ann <ann@example.com>',
      attachment1: { filename: 'logo.png', contentType: 'image/png', size: png.length, sha256 },
    });
    // The file's bytes are the kept body's: read back by the digest its trigger data names, as an attachment.
    const [delivery] = await stack.deliveries(robot.robotId);
    const file = await fetch(`${stack.baseUrl}/api/deliveries/${delivery.id}/files/${sha256}`, {
      headers: { authorization: `Bearer ${stack.config.adminToken}` },
    });
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('application/octet-stream');
    expect(file.headers.get('content-disposition')).toBe('attachment; filename="logo.png"');
    expect(Buffer.from(await file.arrayBuffer())).toEqual(png);
    const none = await stack.api('GET', `/api/deliveries/${delivery.id}/files/${'0'.repeat(64)}`);
    expect(none.status).toBe(404);
  });

  it('fails a multipart form without its boundary, naming why', async () => {
    const { delivery } = await deliver(
      'form',
      '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--x--',
      {},
      'multipart/form-data',
    );
    expect(delivery).toMatchObject({ outcome: 'failed' });
    expect(delivery.error).toMatch(/boundary/);
  });
});

describe('bodies that do not parse', () => {
  it.each([
    ['json', '{"a":', /^invalid JSON/],
    ['xml', '<a><b></a>', /^invalid XML/],
    ['json', Buffer.from([0x7b, 0xff, 0x7d]), /^body is not valid UTF-8$/],
  ])('%s %j: no run, the delivery records the parser error, and the worker goes on', async (format, body, error) => {
    const robot = await stack.robotAtWork({ bodyFormat: format });
    expect((await stack.send('POST', robot.webhookUrl, body as string)).status).toBe(200);
    const [failed] = await settled(robot.robotId);
    expect(failed).toMatchObject({ outcome: 'failed', format, error: expect.stringMatching(error) });
    expect(failed.runCount).toBeUndefined();
    // The worker still processes the next delivery.
    const ok = format === 'xml' ? '<a>1</a>' : '{"a":1}';
    await stack.send('POST', robot.webhookUrl, ok);
    const runs = await waitFor(
      () => stack.runs(robot.robotId),
      (r) => r[0]?.status === 'succeeded',
    );
    expect(runs).toHaveLength(1);
  });
});

describe('deliveries', () => {
  it('lists deliveries newest first with format, size, outcome and workflow ID, in pages', async () => {
    const robot = await stack.robotAtWork();
    await stack.send('POST', robot.webhookUrl, '{"n":1}', { 'content-type': 'text/csv' });
    await waitFor(
      () => stack.deliveries(robot.robotId),
      (d) => d.length === 1,
    );
    await stack.send('POST', robot.webhookUrl, '{"n":');
    await waitFor(
      () => stack.deliveries(robot.robotId),
      (d) => d.length === 2,
    );
    const first = await stack.api('GET', `/api/robots/${robot.robotId}/deliveries?limit=1`);
    expect(first.body.deliveries).toEqual([
      expect.objectContaining({
        outcome: 'failed',
        error: expect.stringMatching(/^invalid JSON/),
        size: 5,
        format: 'json',
        verified: null,
      }),
    ]);
    const second = await stack.api(
      'GET',
      `/api/robots/${robot.robotId}/deliveries?limit=1&cursor=${first.body.nextCursor}`,
    );
    expect(second.body.deliveries).toEqual([
      expect.objectContaining({
        outcome: 'processed',
        runCount: 1,
        size: 7,
        contentType: 'text/csv',
        workflowId: expect.stringMatching(/^delivery:custom:/),
      }),
    ]);
    expect(second.body.nextCursor).toBeNull();
  });
});
