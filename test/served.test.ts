/**
 * Served well (src/core/compression.ts, src/runtime/dashboard.ts; docs/operations.md "Compression and
 * caching"): the API's JSON and the dashboard's files compressed for a client that takes it, never a
 * webhook's answer; the dashboard's hashed assets kept a year, every file with an ETag answered 304.
 * Requests go by node:http, which decompresses nothing, so the test sees the bytes as sent.
 */
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import zlib from 'node:zlib';
import { COMPRESS_MIN_BYTES } from '../src/domain/limits';
import { startStack, type Stack } from './support/stack';

let stack: Stack;
beforeAll(async () => (stack = await startStack()));
afterAll(() => stack.close());

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

function request(method: string, url: string, headers: Record<string, string> = {}, body?: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    // A connection each: a refused webhook's connection is not kept by the receiver.
    const req = http.request(url, { method, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

const admin = () => ({ authorization: `Bearer ${stack.config.adminToken}` });
const dist = path.resolve(__dirname, '..', 'web', 'dist');
const script = () => /assets\/index-[^"]+\.js/.exec(fs.readFileSync(path.join(dist, 'index.html'), 'utf8'))![0];

it("compresses the API's JSON for a client that takes gzip or brotli, and sends it as it is to one that does not", async () => {
  const url = `${stack.baseUrl}/api/openapi.json`;
  const plain = await request('GET', url, admin());
  expect(plain.headers['content-encoding']).toBeUndefined();
  expect(plain.body.length).toBeGreaterThan(COMPRESS_MIN_BYTES);
  expect(Number(plain.headers['content-length'])).toBe(plain.body.length);
  const document: unknown = JSON.parse(plain.body.toString('utf8'));

  const gzipped = await request('GET', url, { ...admin(), 'accept-encoding': 'gzip' });
  expect(gzipped.status).toBe(200);
  expect(gzipped.headers['content-encoding']).toBe('gzip');
  expect(gzipped.headers['content-type']).toMatch(/^application\/json/);
  expect(gzipped.headers.vary).toMatch(/accept-encoding/i);
  expect(Number(gzipped.headers['content-length'])).toBe(gzipped.body.length);
  expect(gzipped.body.length).toBeLessThan(plain.body.length / 3);
  expect(JSON.parse(zlib.gunzipSync(gzipped.body).toString('utf8'))).toEqual(document);

  const brotli = await request('GET', url, { ...admin(), 'accept-encoding': 'br' });
  expect(brotli.headers['content-encoding']).toBe('br');
  expect(JSON.parse(zlib.brotliDecompressSync(brotli.body).toString('utf8'))).toEqual(document);

  const refused = await request('GET', url, { ...admin(), 'accept-encoding': 'gzip;q=0, br;q=0' });
  expect(refused.headers['content-encoding']).toBeUndefined();
  expect(refused.body).toEqual(plain.body);
});

it('sends a small answer as it is: below COMPRESS_MIN_BYTES nothing is saved', async () => {
  const me = await request('GET', `${stack.baseUrl}/api/me`, { ...admin(), 'accept-encoding': 'gzip' });
  expect(me.status).toBe(200);
  expect(me.body.length).toBeLessThan(COMPRESS_MIN_BYTES);
  expect(me.headers['content-encoding']).toBeUndefined();
  expect(JSON.parse(me.body.toString('utf8'))).toHaveProperty('actor', 'admin');
});

it("never compresses a webhook's answer", async () => {
  const robot = await stack.robotAtWork();
  const big = JSON.stringify({ pad: 'x'.repeat(4 * COMPRESS_MIN_BYTES) });
  const taken = await request('POST', robot.webhookUrl, { 'accept-encoding': 'gzip, br' }, big);
  expect(taken.status).toBe(200);
  expect(taken.headers['content-encoding']).toBeUndefined();
  expect(taken.headers.vary ?? '').not.toMatch(/accept-encoding/i);
  const unknown = await request('POST', `${stack.baseUrl}/api/webhooks/nothing/here`, { 'accept-encoding': 'gzip' });
  expect(unknown.status).toBe(404);
  expect(unknown.headers['content-encoding']).toBeUndefined();
});

it("keeps the dashboard's hashed files a year, compressed, and answers 304 to a copy still current", async () => {
  const url = `${stack.baseUrl}/${script()}`;
  const file = fs.readFileSync(path.join(dist, script()));
  const first = await request('GET', url, { 'accept-encoding': 'gzip' });
  expect(first.status).toBe(200);
  expect(first.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  expect(first.headers['content-encoding']).toBe('gzip');
  expect(zlib.gunzipSync(first.body)).toEqual(file);
  const etag = first.headers.etag!;
  expect(etag).toMatch(/^W\/"[A-Za-z0-9_-]+"$/);

  const again = await request('GET', url, { 'accept-encoding': 'gzip', 'if-none-match': etag });
  expect(again.status).toBe(304);
  expect(again.body.length).toBe(0);
  expect(again.headers.etag).toBe(etag);
  // Another ETag (a copy of another build) gets the file.
  const other = await request('GET', url, { 'if-none-match': 'W/"another"' });
  expect(other.status).toBe(200);
  expect(other.body).toEqual(file);
});

it('asks browsers to check index.html each time, and answers 304 while it has not changed', async () => {
  const page = await request('GET', `${stack.baseUrl}/robots/r1`);
  expect(page.status).toBe(200);
  expect(page.headers['cache-control']).toBe('no-cache');
  expect(page.body).toEqual(fs.readFileSync(path.join(dist, 'index.html')));
  const etag = page.headers.etag!;
  expect(etag).toMatch(/^W\//);
  // Every page is the same file, so the same ETag.
  const home = await request('GET', `${stack.baseUrl}/`, { 'if-none-match': etag });
  expect(home.status).toBe(304);
  expect(home.body.length).toBe(0);
  expect((await request('GET', `${stack.baseUrl}/keys`, { 'if-none-match': 'W/"old"' })).status).toBe(200);
});
