import { createHash, createHmac, randomBytes } from 'node:crypto';
import fc from 'fast-check';
import {
  BODY_DEDUP_WINDOW_MS,
  DEDUP_KEY_MAX_BYTES,
  DEDUP_WINDOW_MS,
  dedupKey,
  dedupOf,
  dedupProblem,
  SIGNED_REPLAY_WINDOW_MS,
  type DedupChoice,
  type DedupSource,
} from '../../src/domain/dedup';
import { deliveryWorkflowId } from '../../src/domain/ids';
import { jsonNestsWithin } from '../../src/domain/body-formats';
import { DEDUP_PARSE_BYTES, TEMPORAL_MAX_ID_BYTES } from '../../src/domain/limits';

const DIGEST_KEY = randomBytes(32);
const hmac = (data: string | Buffer): string => createHmac('sha256', DIGEST_KEY).update(data).digest('hex');
const body = (text: string): Buffer => Buffer.from(text, 'utf8');
type Headers = DedupSource['headers'];
const stripe = (headers: Headers, raw: Buffer) =>
  dedupKey({ kind: 'stripe', signedWith: null, headers, body: raw }, DIGEST_KEY);
const custom = (headers: Headers, raw: Buffer, signedWith: string | null = null, senderId?: string) =>
  dedupKey({ kind: 'custom', signedWith, headers, body: raw, senderId }, DIGEST_KEY);

describe('dedupKey: payment provider (stripe)', () => {
  test('uses the event id', () => {
    expect(stripe({}, body('{"id":"evt_123","type":"charge.succeeded"}'))).toBe(`event-hmac:${hmac('evt_123')}`);
  });

  test('ignores Idempotency-Key and webhook-id headers', () => {
    expect(stripe({ 'idempotency-key': 'k1', 'webhook-id': 'w1' }, body('{"id":"evt_123"}'))).toBe(
      `event-hmac:${hmac('evt_123')}`,
    );
  });

  test('falls back to the body digest when the body is not JSON, has no id, or is not an object', () => {
    for (const text of ['not json at all', '{"type":"x"}', '{"id":""}', '{"id":42}', 'null', '[{"id":"e"}]', '7'])
      expect(stripe({}, body(text))).toBe(`body-hmac:${hmac(body(text))}`);
  });

  test('an event id with non-printable characters is used by its digest', () => {
    const id = 'evt 1\n';
    expect(stripe({}, body(JSON.stringify({ id })))).toBe(`event-hmac:${hmac(id)}`);
  });
});

describe('dedupKey: custom app without verification (nothing is signed)', () => {
  test('prefers the Idempotency-Key header', () => {
    expect(custom({ 'idempotency-key': 'order-7', 'webhook-id': 'msg_1' }, body('{}'))).toBe(
      `idempotency-key-hmac:${hmac('order-7')}`,
    );
  });

  test('uses webhook-id when there is no Idempotency-Key, or an empty one', () => {
    expect(custom({ 'webhook-id': 'msg_1' }, body('{}'))).toBe(`webhook-id-hmac:${hmac('msg_1')}`);
    expect(custom({ 'idempotency-key': '', 'webhook-id': 'msg_1' }, body('{}'))).toBe(
      `webhook-id-hmac:${hmac('msg_1')}`,
    );
  });

  test('uses the body digest when neither header is present, and reads no event id from the body', () => {
    const raw = body('{"id":"evt_123"}');
    expect(custom({}, raw)).toBe(`body-hmac:${hmac(raw)}`);
  });

  test('a repeated header uses its first value', () => {
    expect(custom({ 'idempotency-key': ['first', 'second'] }, body('{}'))).toBe(
      `idempotency-key-hmac:${hmac('first')}`,
    );
  });

  test.each([
    ['an ordinary id', 'order-7'],
    ['spaces', 'order 7'],
    ['a control character', 'order\u00077'],
    ['non-ASCII characters', 'bestellung-ä'],
    ['a value longer than a workflow ID may be', 'k'.repeat(DEDUP_KEY_MAX_BYTES + 1)],
  ])('a header value with %s is used by its keyed digest, never as it is (review N7)', (_, value) => {
    expect(custom({ 'idempotency-key': value }, body('{}'))).toBe(`idempotency-key-hmac:${hmac(value)}`);
  });
});

describe('dedupKey: custom app with verification (the key is taken from what is signed)', () => {
  test('standard-webhooks: its signed webhook-id (as before the catalog); an Idempotency-Key changes nothing', () => {
    const headers = { 'webhook-id': 'msg_1', 'idempotency-key': 'k' };
    expect(custom(headers, body('{}'), 'standard-webhooks', 'msg_1')).toBe(`webhook-id-hmac:${hmac('msg_1')}`);
  });

  test("another sender's signed id (Twitch's message id): by its keyed digest", () => {
    const headers = { 'twitch-eventsub-message-id': 'm-1', 'idempotency-key': 'k' };
    expect(custom(headers, body('{}'), 'twitch', 'm-1')).toBe(`sender-id-hmac:${hmac('m-1')}`);
  });

  test.each(['github', 'shopify', 'slack', 'hmac'])(
    '%s: the signed body, whatever delivery id or Idempotency-Key header comes with it',
    (scheme) => {
      const raw = body('{"action":"opened"}');
      const copies = [
        { 'x-github-delivery': 'd-1', 'x-shopify-webhook-id': 's-1' },
        { 'x-github-delivery': 'd-2', 'x-shopify-webhook-id': 's-2', 'idempotency-key': 'new' },
        { 'webhook-id': 'w-3' },
      ];
      for (const headers of copies) expect(custom(headers, raw, scheme)).toBe(`body-hmac:${hmac(raw)}`);
      expect(custom({}, body('{"action":"closed"}'), scheme)).not.toBe(custom({}, raw, scheme));
    },
  );
});

describe('dedupKey: digests', () => {
  test('are keyed: another key gives another digest, and none is the bare SHA-256 of the body', () => {
    const raw = body('{"status":"down"}');
    const other = dedupKey({ kind: 'custom', signedWith: null, headers: {}, body: raw }, randomBytes(32));
    expect(custom({}, raw)).not.toBe(other);
    expect(custom({}, raw)).not.toContain(createHash('sha256').update(raw).digest('hex'));
  });

  test('a header digest never equals the body digest of the same text', () => {
    const value = 'x'.repeat(DEDUP_KEY_MAX_BYTES);
    expect(custom({ 'idempotency-key': value }, body('{}'))).not.toBe(custom({}, body(value)));
  });
});

describe('deliveryWorkflowId', () => {
  test('combines the trigger identifier and the dedup key', () => {
    expect(deliveryWorkflowId('custom:abc', 'event:evt_123')).toBe('delivery:custom:abc:event:evt_123');
  });

  test(`fits Temporal server's ${TEMPORAL_MAX_ID_BYTES} bytes whatever the sender sends`, () => {
    const identifier = `custom:${'0'.repeat(8)}-0000-0000-0000-${'0'.repeat(12)}`;
    const value = fc.oneof(fc.string({ maxLength: 2000 }), fc.string({ unit: 'binary', maxLength: 600 }));
    fc.assert(
      fc.property(
        fc.record({ 'idempotency-key': value, 'webhook-id': value }, { requiredKeys: [] }),
        fc.constantFrom<string | null>(null, 'standard-webhooks', 'github'),
        fc.constantFrom('custom' as const, 'stripe' as const),
        value,
        (headers, signedWith, kind, id) => {
          const raw = body(JSON.stringify({ id }));
          const senderId = signedWith ? headers['webhook-id'] : undefined;
          const key = dedupKey({ kind, signedWith, headers, body: raw, senderId }, DIGEST_KEY);
          expect(Buffer.byteLength(deliveryWorkflowId(identifier, key))).toBeLessThanOrEqual(TEMPORAL_MAX_ID_BYTES);
        },
      ),
    );
  });
});

describe('dedupOf: the key an app chose, and its window', () => {
  const KEY = Buffer.alloc(32, 7);
  const keyed = (value: string) => createHmac('sha256', KEY).update(value).digest('hex');
  const of = (choice: DedupChoice | undefined, headers: Record<string, string> = {}, body = '{"event":{"id":"e1"}}') =>
    dedupOf({ kind: 'custom', signedWith: null, headers, body: Buffer.from(body), choice }, KEY, 'delivery-1');

  test('auto is as before: an id header for 72 hours, else the body digest for one hour', () => {
    expect(of(undefined, { 'idempotency-key': 'k' })).toEqual({
      key: `idempotency-key-hmac:${keyed('k')}`,
      windowMs: DEDUP_WINDOW_MS,
    });
    expect(of({ key: 'auto' })).toEqual({ key: expect.stringMatching(/^body-hmac:/), windowMs: BODY_DEDUP_WINDOW_MS });
  });

  test('a named header, a JSON path, the body, none', () => {
    expect(of({ key: 'header', header: 'x-request-id' }, { 'x-request-id': 'r1' }).key).toBe(
      `header-hmac:${keyed('r1')}`,
    );
    expect(of({ key: 'jsonPath', path: 'trigger.event.id' }).key).toBe(`path-hmac:${keyed('e1')}`);
    expect(of({ key: 'body' }, { 'idempotency-key': 'k' }).key).toMatch(/^body-hmac:/);
    expect(of({ key: 'none' })).toMatchObject({ key: 'none:delivery-1' });
  });

  test('a key that is not there falls back to the body digest (and its window)', () => {
    expect(of({ key: 'header', header: 'x-request-id' })).toEqual({
      key: expect.stringMatching(/^body-hmac:/),
      windowMs: BODY_DEDUP_WINDOW_MS,
    });
    expect(of({ key: 'jsonPath', path: 'trigger.missing' }).key).toMatch(/^body-hmac:/);
    expect(of({ key: 'jsonPath', path: 'trigger.event.id' }, {}, 'not json').key).toMatch(/^body-hmac:/);
  });

  test('a window chosen wins, up to the retention', () => {
    expect(of({ key: 'body', windowSeconds: 60 }).windowMs).toBe(60_000);
    expect(of({ key: 'header', header: 'x', windowSeconds: 10 ** 9 }, { x: '1' }).windowMs).toBe(DEDUP_WINDOW_MS);
  });

  test('what an app cannot choose', () => {
    const unsigned = { signedWith: null, bodyFormat: 'json' as const };
    expect(dedupProblem({ key: 'header' }, unsigned)?.field).toBe('dedup.header');
    expect(dedupProblem({ key: 'header', header: 'x' }, { ...unsigned, signedWith: 'github' })?.field).toBe(
      'dedup.key',
    );
    expect(dedupProblem({ key: 'jsonPath', path: 'trigger.id' }, { ...unsigned, bodyFormat: 'csv' })?.field).toBe(
      'dedup.key',
    );
    expect(dedupProblem({ key: 'jsonPath', path: 'id' }, unsigned)?.field).toBe('dedup.path');
    expect(dedupProblem({ key: 'jsonPath', path: 'trigger.id' }, unsigned)).toBeNull();
    expect(dedupProblem({ key: 'body' }, { ...unsigned, signedWith: 'github' })).toBeNull();
    // Untimed signatures: only the refusal of a repeat stops a captured request sent again.
    expect(dedupProblem({ key: 'none' }, { ...unsigned, signedWith: 'github' })?.field).toBe('dedup.key');
    expect(dedupProblem({ key: 'body', windowSeconds: 3600 }, { ...unsigned, signedWith: 'hmac' })?.field).toBe(
      'dedup.windowSeconds',
    );
    // Timed signatures verify for 5 minutes either side of their time: a capture runs again within them (N8).
    for (const signedWith of ['slack', 'standard-webhooks']) {
      expect(dedupProblem({ key: 'none' }, { ...unsigned, signedWith })?.field).toBe('dedup.key');
      expect(dedupProblem({ key: 'body', windowSeconds: 299 }, { ...unsigned, signedWith })?.field).toBe(
        'dedup.windowSeconds',
      );
      expect(
        dedupProblem({ key: 'body', windowSeconds: SIGNED_REPLAY_WINDOW_MS / 1000 }, { ...unsigned, signedWith }),
      ).toBeNull();
    }
    expect(dedupProblem({ key: 'none' }, unsigned)).toBeNull();
    // Mailgun signs its signature's timestamp and token, not its event-data: only its signed token keys it.
    const mailgun = { signedWith: 'mailgun', bodyFormat: 'json' as const };
    expect(dedupProblem({ key: 'body' }, mailgun)?.field).toBe('dedup.key');
    expect(dedupProblem({ key: 'jsonPath', path: 'trigger.event-data.id' }, mailgun)?.field).toBe('dedup.key');
    expect(dedupProblem({ key: 'auto' }, mailgun)).toBeNull();
  });

  test('a signed app saved with none or a short window before they were refused still makes one run of a capture', () => {
    const signed = (choice: DedupChoice) =>
      dedupOf({ kind: 'custom', signedWith: 'slack', headers: {}, body: Buffer.from('{}'), choice }, DIGEST_KEY, 'd');
    expect(signed({ key: 'none' }).key).toMatch(/^body-hmac:/);
    // Slack's signature verifies 5 minutes either side of its time.
    expect(signed({ key: 'body', windowSeconds: 1 }).windowMs).toBe(2 * 300_000);
  });
});

test('the body digest of a sender whose signature carries no time keeps 72 hours: it alone stops a replayed capture', () => {
  const KEY = Buffer.alloc(32, 7);
  const windowOf = (signedWith: string | null) =>
    dedupOf({ kind: 'custom', signedWith, headers: {}, body: Buffer.from('{}') }, KEY, 'd').windowMs;
  expect(['github', 'shopify', 'hmac'].map(windowOf)).toEqual([DEDUP_WINDOW_MS, DEDUP_WINDOW_MS, DEDUP_WINDOW_MS]);
  expect([null, 'slack'].map(windowOf)).toEqual([BODY_DEDUP_WINDOW_MS, BODY_DEDUP_WINDOW_MS]);
  // Senders of identical "something changed" notifications with neither id nor time name their own window.
  expect(['dropbox', 'microsoft-graph'].map(windowOf)).toEqual([60_000, 60_000]);
});

test('a handshake sent again is recognised as long as the longest-lived signed time of any sender (Twitch, 10 min)', () => {
  expect(SIGNED_REPLAY_WINDOW_MS).toBe(2 * 600_000);
});

describe('a key read from the body: bounded, and never a throw (review N2, N3)', () => {
  const deep = (n: number) => Buffer.from(`{"id":"evt_1","a":${'['.repeat(n)}${']'.repeat(n)}}`);
  const KEY = Buffer.alloc(32, 3);
  const key = (source: Partial<DedupSource>) =>
    dedupOf({ kind: 'custom', signedWith: null, headers: {}, body: Buffer.from('{}'), ...source }, KEY, 'd').key;

  test('a value nested too deep, or a body too large, falls back to the digest', () => {
    expect(key({ body: deep(100_000), choice: { key: 'jsonPath', path: 'trigger.a' } })).toMatch(/^body-hmac:/);
    expect(key({ kind: 'stripe', signedWith: 'stripe', body: deep(100_000) })).toMatch(/^body-hmac:/);
    const large = Buffer.from(JSON.stringify({ id: 'evt_1', pad: 'x'.repeat(DEDUP_PARSE_BYTES) }));
    expect(key({ kind: 'stripe', body: large })).toMatch(/^body-hmac:/);
    // Parsed only once the signature verified, a signed event may be larger.
    expect(key({ kind: 'stripe', signedWith: 'stripe', body: large })).toMatch(/^event-hmac:/);
    expect(key({ body: deep(10), choice: { key: 'jsonPath', path: 'trigger.a' } })).toMatch(/^path-hmac:/);
  });

  test('jsonNestsWithin counts brackets outside strings only', () => {
    expect(jsonNestsWithin('[[1]]', 2)).toBe(true);
    expect(jsonNestsWithin('[[[1]]]', 2)).toBe(false);
    expect(jsonNestsWithin('["[[[[\\"[[["]', 1)).toBe(true);
  });
});
