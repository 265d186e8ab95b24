/**
 * Loopback ports for the servers a test starts, chosen below the kernel's ephemeral range.
 *
 * A port the kernel hands out for `listen(0)` comes from the ephemeral range, and so do the ports
 * the Temporal dev server picks for its own internal services and every outgoing connection's
 * local port. A port taken from there and released could be taken again by one of those before
 * the test's own server binds it (a receiver that then never listens, and a probe that finds the
 * Temporal server instead). Ports below that range are only ever taken on request.
 *
 * Ports the Fetch standard's "bad port" list names are never chosen: Node's `fetch` and every browser
 * refuse to connect to them (a test's client failed with `bad port` once 10080 was drawn). Of that
 * list only 10080 lies in the range drawn from; the set keeps only those.
 */
import fs from 'node:fs';
import net from 'node:net';

/** The lowest ephemeral port (Linux: /proc/sys/net/ipv4/ip_local_port_range), or the IANA one. */
function ephemeralStart(): number {
  try {
    const [low] = fs.readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/);
    const port = Number(low);
    if (Number.isInteger(port) && port > 20_000) return port;
  } catch {
    // not Linux: the IANA range
  }
  return 49_152;
}

const LOWEST = 10_000;
const HIGHEST = ephemeralStart() - 1;
/** The Fetch standard's bad ports at or above LOWEST (https://fetch.spec.whatwg.org/#port-blocking). */
const FETCH_BAD_PORTS = new Set([10080]);

function listenOn(port: number): Promise<net.Server | null> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(null));
    server.listen(port, '127.0.0.1', () => resolve(server));
  });
}

/** A TCP port on loopback that nothing listens on right now. */
export async function freePort(): Promise<number> {
  const [port] = await freePorts(1);
  return port;
}

/** Distinct loopback ports nothing listens on right now (held open together, so they differ). */
export async function freePorts(count: number): Promise<number[]> {
  const held: net.Server[] = [];
  for (let tries = 0; held.length < count; tries++) {
    if (tries > 1000) throw new Error(`no ${count} free ports between ${LOWEST} and ${HIGHEST}`);
    const port = LOWEST + Math.floor(Math.random() * (HIGHEST - LOWEST + 1));
    if (FETCH_BAD_PORTS.has(port)) continue;
    const server = await listenOn(port);
    if (server) held.push(server);
  }
  const ports = held.map((s) => (s.address() as net.AddressInfo).port);
  await Promise.all(held.map((s) => new Promise((r) => s.close(r))));
  return ports;
}

/** Whether nothing listens on any of these loopback ports right now. */
export async function portsFree(ports: number[]): Promise<boolean> {
  const held = await Promise.all(ports.map(listenOn));
  await Promise.all(held.map((s) => new Promise((r) => (s ? s.close(r) : r(undefined)))));
  return held.every((s) => s !== null);
}

/** `count` free ports, each with the next two free as well. */
export async function freeSpacedPorts(count: number): Promise<number[]> {
  const found: number[] = [];
  while (found.length < count) {
    const [p] = await freePorts(1);
    const taken = found.some((f) => Math.abs(f - p) <= 2);
    if (!taken && (await portsFree([p + 1, p + 2]))) found.push(p);
  }
  return found;
}
