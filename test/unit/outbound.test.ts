/**
 * The outbound request of notifications (src/notifications/outbound.ts, docs/security.md): it goes to
 * the address that was checked, not to what the name resolves to later; it stops reading an answer
 * at NOTIFY_RESPONSE_BYTES and gives up on one that never comes after NOTIFY_TIMEOUT_MS; it refuses
 * a loopback URL unless the rules allow private addresses. Against servers of this process, on loopback.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { NOTIFY_TIMEOUT_MS } from '../../src/domain/limits';
import { postJson, postTo, vetUrl } from '../../src/notifications/outbound';

const seen: Array<{ path: string; host: string | undefined }> = [];
const server = http.createServer((req, res) => {
  seen.push({ path: req.url ?? '', host: req.headers.host });
  if (req.url === '/endless') {
    res.writeHead(200);
    const chunk = Buffer.alloc(64 * 1024, 'a');
    const more = () => {
      while (!res.destroyed && res.write(chunk));
      if (!res.destroyed) res.once('drain', more);
    };
    return more();
  }
  if (req.url === '/silent') return; // never answers
  res.writeHead(204).end();
});
let port: number;
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

it('connects to the vetted address: the name is not resolved again', async () => {
  // `.invalid` never resolves (RFC 6761): only the pinned lookup can have connected it.
  const url = `http://checked-once.invalid:${port}/pinned`;
  const outcome = await postTo(url, { address: '127.0.0.1', family: 4 }, '{}', {});
  expect(outcome).toEqual({ delivered: true, status: 204 });
  expect(seen.find((s) => s.path === '/pinned')?.host).toBe(`checked-once.invalid:${port}`);
});

it('reads no more than NOTIFY_RESPONSE_BYTES of an answer that never ends', async () => {
  const outcome = await postTo(`http://127.0.0.1:${port}/endless`, { address: '127.0.0.1', family: 4 }, '{}', {});
  expect(outcome).toEqual({ delivered: true, status: 200 });
});

it('gives up on an answer that never comes', async () => {
  const outcome = await postTo(`http://127.0.0.1:${port}/silent`, { address: '127.0.0.1', family: 4 }, '{}', {});
  expect(outcome).toEqual({ delivered: false, status: null, error: `no answer within ${NOTIFY_TIMEOUT_MS} ms` });
});

it('refuses loopback and other schemes unless allowed, and sends nothing then', async () => {
  const before = seen.length;
  const outcome = await postJson(`http://127.0.0.1:${port}/refused`, '{}', {}, { allowPrivateAddresses: false });
  expect(outcome).toEqual({ delivered: false, status: null, error: 'refused: 127.0.0.1 is a loopback address' });
  await expect(vetUrl(`http://localhost:${port}/`, { allowPrivateAddresses: false })).rejects.toThrow(
    /^localhost resolves to .*, a loopback address$/,
  );
  await expect(vetUrl('file:///etc/passwd', { allowPrivateAddresses: true })).rejects.toThrow('http:// or https://');
  expect(seen.length).toBe(before);
  expect(await vetUrl(`http://127.0.0.1:${port}/`, { allowPrivateAddresses: true })).toEqual({
    address: '127.0.0.1',
    family: 4,
  });
});
