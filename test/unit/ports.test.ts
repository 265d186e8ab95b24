/**
 * The loopback ports tests draw (src/launch/os/ports.ts) are ones a client can reach: never a port
 * the Fetch standard blocks, which Node's `fetch` refuses before connecting.
 */
import fs from 'node:fs';
import { freePorts } from '../../src/launch/os/ports';

const highest = Number(fs.readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]) - 1;

afterEach(() => jest.restoreAllMocks());

it('Node fetch refuses 10080, the one blocked port in the drawn range', async () => {
  await expect(fetch('http://127.0.0.1:10080/')).rejects.toMatchObject({ cause: { message: 'bad port' } });
});

it('draws again when the draw lands on 10080', async () => {
  const span = highest - 10_000 + 1;
  const random = jest.spyOn(Math, 'random');
  random.mockReturnValueOnce((10_080 - 10_000 + 0.5) / span).mockReturnValueOnce((10_081 - 10_000 + 0.5) / span);
  const [port] = await freePorts(1);
  expect(port).not.toBe(10_080);
  expect(random.mock.calls.length).toBeGreaterThanOrEqual(2);
});
