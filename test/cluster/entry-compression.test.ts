/**
 * The entry's compression (src/launch/servers/nginx.ts, docs/operations.md "Compression and caching"):
 * the real nginx the cluster runs, with the configuration it writes, in front of an upstream that
 * answers as a receiver does and tells what it was asked. nginx compresses the API's JSON for a client
 * that takes gzip, and asks the receivers for answers as they are; webhook answers go untouched.
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { COMPRESS_MIN_BYTES, DEFAULT_MAX_BODY_BYTES } from '../../src/domain/limits';
import { freePort } from '../../src/launch/os/ports';
import type { ManagedProcess } from '../../src/launch/os/managed-process';
import { startNginx } from '../../src/launch/servers/nginx';

/** What the upstream was asked, by path. */
const asked = new Map<string, http.IncomingHttpHeaders>();
const json = JSON.stringify({ robots: Array.from({ length: 100 }, (_, i) => ({ id: `r${i}`, name: 'Refunds' })) });
const upstream = http.createServer((req, res) => {
  asked.set(req.url!, req.headers);
  req.resume();
  req.on('end', () => {
    if (req.url!.startsWith('/api/webhooks/')) return void res.writeHead(200, { 'content-length': 0 }).end();
    res.writeHead(200, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': Buffer.byteLength(json),
    });
    res.end(json);
  });
});
let dir: string;
let entry: ManagedProcess;
let port: number;
beforeAll(async () => {
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'entry-gzip-'));
  port = await freePort();
  entry = await startNginx({
    bin: process.env.NGINX_BIN!,
    dir,
    port,
    receiverPorts: [(upstream.address() as AddressInfo).port],
    maxBodyBytes: DEFAULT_MAX_BODY_BYTES,
  });
});
afterAll(async () => {
  await entry?.stop();
  upstream.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

function get(url: string, headers: Record<string, string>, method = 'GET'): Promise<[http.IncomingMessage, Buffer]> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve([res, Buffer.concat(chunks)]));
    });
    req.on('error', reject);
    req.end(method === 'POST' ? '{}' : undefined);
  });
}

it("compresses the API's JSON at the entry, the receivers asked for it as it is", async () => {
  expect(Buffer.byteLength(json)).toBeGreaterThan(COMPRESS_MIN_BYTES);
  const [res, body] = await get(`http://127.0.0.1:${port}/api/robots`, { 'accept-encoding': 'gzip, br' });
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-encoding']).toBe('gzip');
  expect(zlib.gunzipSync(body).toString('utf8')).toBe(json);
  expect(asked.get('/api/robots')!['accept-encoding']).toBeUndefined();

  const [plain, text] = await get(`http://127.0.0.1:${port}/api/robots`, {});
  expect(plain.headers['content-encoding']).toBeUndefined();
  expect(text.toString('utf8')).toBe(json);
});

it("leaves a webhook's answer and request as they are", async () => {
  const [res, body] = await get(
    `http://127.0.0.1:${port}/api/webhooks/custom:x/tok`,
    { 'accept-encoding': 'gzip' },
    'POST',
  );
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-encoding']).toBeUndefined();
  expect(body.length).toBe(0);
  expect(asked.get('/api/webhooks/custom:x/tok')!['accept-encoding']).toBe('gzip');
});
