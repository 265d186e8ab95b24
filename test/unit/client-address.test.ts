/**
 * Whose request it is (src/core/client-address.ts) and the credential check that counts by it
 * (src/core/http-errors.ts): the right credential is never refused, and X-Forwarded-For is believed only from a
 * trusted proxy.
 */
import Koa from 'koa';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { clientAddresses, PRIVATE_NETWORKS, TrustedProxies, trustedProxyRanges } from '../../src/core/client-address';
import { errorHandler, requireAdminToken } from '../../src/core/http-errors';
import { createLogger } from '../../src/core/log';
import { Throttle } from '../../src/core/throttle';

describe('TrustedProxies', () => {
  const TRUSTED = { loopback: ['127.0.0.1', '::1'], none: [], private: PRIVATE_NETWORKS };
  it.each([
    { trust: 'loopback', peer: '127.0.0.1', forwarded: '203.0.113.9', client: '203.0.113.9' },
    { trust: 'loopback', peer: '::ffff:127.0.0.1', forwarded: '198.51.100.1, 203.0.113.9', client: '203.0.113.9' },
    { trust: 'loopback', peer: '127.0.0.1', forwarded: 'not an address', client: '127.0.0.1' },
    { trust: 'loopback', peer: '198.51.100.7', forwarded: '127.0.0.1', client: '198.51.100.7' },
    { trust: 'none', peer: '127.0.0.1', forwarded: '203.0.113.9', client: '127.0.0.1' },
    { trust: 'private', peer: '172.18.0.5', forwarded: '203.0.113.9', client: '203.0.113.9' },
    { trust: 'private', peer: '203.0.113.1', forwarded: '10.0.0.1', client: '203.0.113.1' },
  ] as const)('trusting $trust, from $peer with X-Forwarded-For "$forwarded": $client', (c) => {
    expect(new TrustedProxies(TRUSTED[c.trust]).clientAddress(c.peer, c.forwarded)).toBe(c.client);
  });

  it('reads TRUST_PROXY: 0, 1, or addresses and ranges', () => {
    expect(trustedProxyRanges('0')).toEqual([]);
    expect(trustedProxyRanges('1')).toBe(PRIVATE_NETWORKS);
    expect(trustedProxyRanges('10.1.2.3, 192.168.0.0/16,::1')).toEqual(['10.1.2.3', '192.168.0.0/16', '::1']);
    expect(trustedProxyRanges('10.0.0.0/33')).toEqual({ problem: expect.stringMatching(/10.0.0.0\/33/) });
    expect(trustedProxyRanges('proxy.local')).toHaveProperty('problem');
  });
});

describe('the admin token from a client address with too many wrong ones', () => {
  const TOKEN = 'the-right-admin-token-0123456789';
  const ALLOWED = 3;
  let server: http.Server;
  let port: number;

  beforeAll(async () => {
    const app = new Koa();
    const failures = new Throttle('requests with a wrong admin token', ALLOWED);
    // A proxy that is not on this machine: nothing on loopback may name another client.
    app.use(clientAddresses(new TrustedProxies(['10.0.0.0/8'])));
    app.use(errorHandler(createLogger('receiver', 'error', { format: 'json' })));
    app.use((ctx) => {
      requireAdminToken(ctx, TOKEN, failures);
      ctx.body = { ok: true };
    });
    // eslint-disable-next-line @typescript-eslint/no-misused-promises -- Koa's handler catches its own errors
    server = http.createServer(app.callback());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  /** A GET from one loopback address (Linux answers all of 127.0.0.0/8). */
  const get = (from: string, token: string, headers: Record<string, string> = {}) =>
    new Promise<number>((resolve, reject) => {
      const req = http.get(
        { host: '127.0.0.1', port, localAddress: from, headers: { authorization: `Bearer ${token}`, ...headers } },
        (res) => {
          res.resume();
          resolve(res.statusCode!);
        },
      );
      req.on('error', reject);
    });

  it('answers 429 to its wrong tokens, and 200 to the right one', async () => {
    for (let i = 0; i < ALLOWED; i++) expect(await get('127.0.0.2', 'wrong-token')).toBe(401);
    expect(await get('127.0.0.2', 'wrong-token')).toBe(429);
    expect(await get('127.0.0.2', TOKEN)).toBe(200);
  });

  it('counts a sender that names another address in X-Forwarded-For by its own', async () => {
    const spoof = { 'x-forwarded-for': '127.0.0.4' };
    for (let i = 0; i <= ALLOWED; i++) await get('127.0.0.3', 'wrong-token', spoof);
    expect(await get('127.0.0.3', 'wrong-token', spoof)).toBe(429);
    // The address it named has its whole allowance.
    expect(await get('127.0.0.4', 'wrong-token')).toBe(401);
  });
});
