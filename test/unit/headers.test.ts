import { headerValue } from '../../src/domain/headers';
import { keptHeaders } from '../../src/domain/deliveries';

describe('headerValue: one way to read a request header', () => {
  it.each([
    [{ 'x-github-delivery': 'abc' }, 'X-GitHub-Delivery', 'abc'],
    [{ 'webhook-id': ['first', 'second'] }, 'webhook-id', 'first'],
    [{ 'idempotency-key': '' }, 'idempotency-key', undefined],
    [{ 'idempotency-key': ['', 'later'] }, 'idempotency-key', undefined],
    [{}, 'webhook-id', undefined],
  ])('reads %j as %s → %s', (headers, name, expected) => {
    expect(headerValue(headers, name)).toBe(expected);
  });

  it('keeps with a delivery exactly what verification and dedup read', () => {
    const kept = keptHeaders({ 'idempotency-key': '', 'webhook-id': ['w1', 'w2'], 'x-sig': 'v' }, ['X-Sig']);
    expect(kept).toEqual({ 'webhook-id': 'w1', 'x-sig': 'v' });
  });
});
