import { createHash } from 'node:crypto';
import { dedupKey, deliveryWorkflowId } from '../../src/domain/dedup';

const sha256 = (data: string | Buffer): string => createHash('sha256').update(data).digest('hex');
const body = (text: string): Buffer => Buffer.from(text, 'utf8');

describe('dedupKey: payment provider (stripe)', () => {
  test('uses the event id', () => {
    expect(dedupKey('stripe', {}, body('{"id":"evt_123","type":"charge.succeeded"}'))).toBe('event:evt_123');
  });

  test('ignores Idempotency-Key and webhook-id headers', () => {
    const headers = { 'idempotency-key': 'k1', 'webhook-id': 'w1' };
    expect(dedupKey('stripe', headers, body('{"id":"evt_123"}'))).toBe('event:evt_123');
  });

  test('falls back to the body hash when the body is not JSON', () => {
    const raw = body('not json at all');
    expect(dedupKey('stripe', {}, raw)).toBe(`sha256:${sha256(raw)}`);
  });

  test('falls back to the body hash when the event has no id', () => {
    const raw = body('{"type":"charge.succeeded"}');
    expect(dedupKey('stripe', {}, raw)).toBe(`sha256:${sha256(raw)}`);
  });

  test('falls back to the body hash when the id is empty or not a string', () => {
    for (const text of ['{"id":""}', '{"id":42}', '{"id":null}']) {
      expect(dedupKey('stripe', {}, body(text))).toBe(`sha256:${sha256(body(text))}`);
    }
  });

  test('falls back to the body hash when the body is JSON but not an object', () => {
    for (const text of ['null', '"evt_1"', '[{"id":"evt_1"}]', '7']) {
      expect(dedupKey('stripe', {}, body(text))).toBe(`sha256:${sha256(body(text))}`);
    }
  });

  test('an event id with non-printable characters is hashed', () => {
    const id = 'evt 1\n';
    expect(dedupKey('stripe', {}, body(JSON.stringify({ id })))).toBe(`event-sha256:${sha256(id)}`);
  });
});

describe('dedupKey: custom app', () => {
  test('prefers the Idempotency-Key header', () => {
    const headers = { 'idempotency-key': 'order-7', 'webhook-id': 'msg_1' };
    expect(dedupKey('custom', headers, body('{}'))).toBe('idempotency-key:order-7');
  });

  test('uses webhook-id when there is no Idempotency-Key', () => {
    expect(dedupKey('custom', { 'webhook-id': 'msg_1' }, body('{}'))).toBe('webhook-id:msg_1');
  });

  test('uses the body hash when neither header is present', () => {
    const raw = body('{"a":1}');
    expect(dedupKey('custom', {}, raw)).toBe(`sha256:${sha256(raw)}`);
  });

  test('an empty Idempotency-Key falls through to webhook-id', () => {
    expect(dedupKey('custom', { 'idempotency-key': '', 'webhook-id': 'msg_1' }, body('{}'))).toBe('webhook-id:msg_1');
  });

  test('does not read an event id from a custom body', () => {
    const raw = body('{"id":"evt_123"}');
    expect(dedupKey('custom', {}, raw)).toBe(`sha256:${sha256(raw)}`);
  });

  test('a repeated header uses its first value', () => {
    expect(dedupKey('custom', { 'idempotency-key': ['first', 'second'] }, body('{}'))).toBe('idempotency-key:first');
  });

  test('a header value with spaces is hashed', () => {
    const value = 'order 7';
    expect(dedupKey('custom', { 'idempotency-key': value }, body('{}'))).toBe(
      `idempotency-key-sha256:${sha256(value)}`,
    );
  });

  test('a header value with non-printable characters is hashed', () => {
    const value = 'order\u00077';
    expect(dedupKey('custom', { 'idempotency-key': value }, body('{}'))).toBe(
      `idempotency-key-sha256:${sha256(value)}`,
    );
  });

  test('a header value with non-ASCII characters is hashed', () => {
    const value = 'bestellung-ä';
    expect(dedupKey('custom', { 'idempotency-key': value }, body('{}'))).toBe(
      `idempotency-key-sha256:${sha256(value)}`,
    );
  });

  test('a 200-character header value is used as it is', () => {
    const value = 'k'.repeat(200);
    expect(dedupKey('custom', { 'idempotency-key': value }, body('{}'))).toBe(`idempotency-key:${value}`);
  });

  test('a header value over 200 characters is hashed', () => {
    const value = 'k'.repeat(201);
    expect(dedupKey('custom', { 'idempotency-key': value }, body('{}'))).toBe(
      `idempotency-key-sha256:${sha256(value)}`,
    );
  });

  test('a long webhook-id is hashed under its own prefix', () => {
    const value = 'w'.repeat(300);
    expect(dedupKey('custom', { 'webhook-id': value }, body('{}'))).toBe(`webhook-id-sha256:${sha256(value)}`);
  });
});

describe('dedupKey: stability', () => {
  test('the same input gives the same key', () => {
    const raw = body('{"a":1}');
    expect(dedupKey('custom', {}, raw)).toBe(dedupKey('custom', {}, Buffer.from(raw)));
    expect(dedupKey('stripe', {}, body('{"id":"evt_1"}'))).toBe(dedupKey('stripe', {}, body('{"id":"evt_1"}')));
  });

  test('a different body gives a different key', () => {
    expect(dedupKey('custom', {}, body('{"a":1}'))).not.toBe(dedupKey('custom', {}, body('{"a":2}')));
    expect(dedupKey('stripe', {}, body('not json 1'))).not.toBe(dedupKey('stripe', {}, body('not json 2')));
  });

  test('the same Idempotency-Key with a different body gives the same key', () => {
    const headers = { 'idempotency-key': 'order-7' };
    expect(dedupKey('custom', headers, body('{"a":1}'))).toBe(dedupKey('custom', headers, body('{"a":2}')));
  });

  test('a hashed header never equals the body-hash key of the same text', () => {
    const value = 'x'.repeat(201);
    expect(dedupKey('custom', { 'idempotency-key': value }, body('{}'))).not.toBe(dedupKey('custom', {}, body(value)));
  });
});

describe('deliveryWorkflowId', () => {
  test('combines the trigger identifier and the dedup key', () => {
    expect(deliveryWorkflowId('trg_abc', 'event:evt_123')).toBe('delivery:trg_abc:event:evt_123');
  });

  test('different identifiers with the same key give different IDs', () => {
    expect(deliveryWorkflowId('trg_a', 'sha256:00')).not.toBe(deliveryWorkflowId('trg_b', 'sha256:00'));
  });

  test('the same identifier with different keys gives different IDs', () => {
    expect(deliveryWorkflowId('trg_a', 'idempotency-key:1')).not.toBe(deliveryWorkflowId('trg_a', 'idempotency-key:2'));
  });
});
