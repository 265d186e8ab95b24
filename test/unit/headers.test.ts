import { headerValue, isHeaderName } from '../../src/domain/headers';
import { keptHeaders } from '../../src/domain/deliveries';

describe('headerValue: one way to read a request header', () => {
  it.each([
    [{ 'x-github-delivery': 'abc' }, 'X-GitHub-Delivery', 'abc'],
    [{ 'webhook-id': ['first', 'second'] }, 'webhook-id', 'first'],
    [{ 'idempotency-key': '' }, 'idempotency-key', undefined],
    [{ 'idempotency-key': ['', 'later'] }, 'idempotency-key', undefined],
    [{}, 'webhook-id', undefined],
    // Inherited from Object, never sent: a rule or a dedup key naming one read a function (N9).
    [{}, 'constructor', undefined],
    [{}, 'toString', undefined],
    [{ constructor: 'sent' }, 'constructor', 'sent'],
  ])('reads %j as %s → %s', (headers, name, expected) => {
    expect(headerValue(headers, name)).toBe(expected);
  });

  it('keeps no inherited name with a delivery, and takes no reserved name as one to choose', () => {
    const headers: Record<string, string> = { 'x-a': '1' };
    expect(keptHeaders(headers, ['constructor', 'toString', 'x-a'])).toEqual({ 'x-a': '1' });
    for (const name of ['__proto__', 'constructor', 'Prototype', 'bad name']) expect(isHeaderName(name)).toBe(false);
    expect(isHeaderName('X-GitHub-Event')).toBe(true);
  });

  it('keeps with a delivery exactly what verification and dedup read', () => {
    const kept = keptHeaders({ 'idempotency-key': '', 'webhook-id': ['w1', 'w2'], 'x-sig': 'v' }, ['X-Sig']);
    expect(kept).toEqual({ 'webhook-id': 'w1', 'x-sig': 'v' });
  });
});
