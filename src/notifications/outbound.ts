/**
 * The one way a notification leaves the service over HTTP (webhook and Slack channels, their tests):
 * to a URL a person chose, so as to a stranger's server (docs/security.md, "Notifications"):
 *
 * - the URL is `http:` or `https:`; its host, an address or every address its name resolves to, is
 *   no loopback, private, link-local, unique-local, multicast, unspecified or reserved address
 *   (src/domain/outbound-addresses.ts), unless NOTIFY_ALLOW_PRIVATE_ADDRESSES=1;
 * - the connection goes to the address that was checked (an undici Agent whose `connect.lookup`
 *   answers only it), so a name that resolves elsewhere a moment later (DNS rebinding) changes nothing;
 * - a redirect is not followed (`redirect: 'manual'`): a 3xx is a failure, "redirect not followed";
 * - the whole exchange has NOTIFY_TIMEOUT_MS, and at most NOTIFY_RESPONSE_BYTES of the answer are read.
 *
 * Never throws for what the far end does: the outcome says what went wrong, in one line.
 */
import { lookup } from 'node:dns/promises';
import type { LookupFunction } from 'node:net';
import { Agent, fetch } from 'undici';
import { addressClass } from '../domain/outbound-addresses';
import { NOTIFY_RESPONSE_BYTES, NOTIFY_TIMEOUT_MS } from '../domain/limits';

/** What the outbound rules allow (NOTIFY_ALLOW_PRIVATE_ADDRESSES). */
export interface OutboundRules {
  allowPrivateAddresses: boolean;
}

/** How one request went: delivered on a 2xx; otherwise why not, in one line. */
export type OutboundOutcome =
  { delivered: true; status: number } | { delivered: false; status: number | null; error: string };

/** A URL the rules refuse: its message says why (`url: 127.0.0.1 is a loopback address`). */
export class UrlRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UrlRefused';
  }
}

/** An address checked, to connect to. */
export interface Vetted {
  address: string;
  family: 4 | 6;
}

const refusalOf = (host: string, address: string, kind: string) =>
  new UrlRefused(
    host === address ? `${address} is a ${kind} address` : `${host} resolves to ${address}, a ${kind} address`,
  );

/** Every address of `host`, or a failure after NOTIFY_TIMEOUT_MS: a slow resolver holds nobody longer. */
async function resolved(host: string): Promise<Array<{ address: string; family: number }>> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('no answer')), NOTIFY_TIMEOUT_MS);
  });
  try {
    return await Promise.race([lookup(host, { all: true, verbatim: true }), late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The address `url` may be sent to, resolved now; throws UrlRefused for a scheme other than http(s),
 * a host that does not resolve, or one any of whose addresses the rules refuse.
 */
export async function vetUrl(url: string, rules: OutboundRules): Promise<Vetted> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new UrlRefused('not an absolute URL');
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new UrlRefused('must be http:// or https://');
  const host = parsed.hostname.replace(/^\[(.*)\]$/, '$1');
  let addresses: Array<{ address: string; family: number }>;
  try {
    addresses = addressClass(host) === 'not an IP address' ? await resolved(host) : [];
  } catch {
    throw new UrlRefused(`${host} does not resolve`);
  }
  if (addresses.length === 0) addresses = [{ address: host, family: host.includes(':') ? 6 : 4 }];
  if (!rules.allowPrivateAddresses)
    for (const { address } of addresses) {
      const kind = addressClass(address);
      if (kind) throw refusalOf(host, address, kind);
    }
  const [first] = addresses;
  return { address: first.address, family: first.family === 6 ? 6 : 4 };
}

/** A lookup that answers every name with the vetted address (Node asks for one, or for all). */
function pinnedLookup(vetted: Vetted): LookupFunction {
  return (_hostname, options, callback) => {
    if (options.all) (callback as (e: null, a: Vetted[]) => void)(null, [vetted]);
    else callback(null, vetted.address, vetted.family);
  };
}

/** Reads at most `cap` bytes of a body, then lets the rest go. */
async function readCapped(body: ReadableStream<Uint8Array> | null, cap: number): Promise<number> {
  if (!body) return 0;
  const reader = body.getReader();
  let read = 0;
  try {
    while (read < cap) {
      const { done, value } = await reader.read();
      if (done) break;
      read += value.byteLength;
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
  return read;
}

/**
 * One line of an error's message (and its cause's: undici's `fetch failed` says little alone). Read
 * by shape: the timeout's DOMException need not be an `Error` of this realm.
 */
function errorLine(err: unknown): string {
  const e = err as { name?: unknown; message?: unknown; cause?: { message?: unknown } } | null;
  if (e?.name === 'TimeoutError') return `no answer within ${NOTIFY_TIMEOUT_MS} ms`;
  const message = typeof e?.message === 'string' ? e.message : String(err);
  const cause = typeof e?.cause?.message === 'string' ? `: ${e.cause.message}` : '';
  return `${message}${cause}`.replace(/\s+/g, ' ');
}

/** POSTs `body` (JSON) with `headers` to `url` under the outbound rules. */
export async function postJson(
  url: string,
  body: string,
  headers: Record<string, string>,
  rules: OutboundRules,
): Promise<OutboundOutcome> {
  let vetted: Vetted;
  try {
    vetted = await vetUrl(url, rules);
  } catch (err) {
    if (err instanceof UrlRefused) return { delivered: false, status: null, error: `refused: ${err.message}` };
    throw err;
  }
  return postTo(url, vetted, body, headers);
}

/** The request itself, to the address `vetted` whatever `url`'s host resolves to by then. */
export async function postTo(
  url: string,
  vetted: Vetted,
  body: string,
  headers: Record<string, string>,
): Promise<OutboundOutcome> {
  const agent = new Agent({
    connect: { lookup: pinnedLookup(vetted), timeout: NOTIFY_TIMEOUT_MS },
    headersTimeout: NOTIFY_TIMEOUT_MS,
    bodyTimeout: NOTIFY_TIMEOUT_MS,
  });
  try {
    const res = await fetch(url, {
      method: 'POST',
      body,
      headers: { 'content-type': 'application/json', 'user-agent': 'webhook-trigger-service', ...headers },
      redirect: 'manual',
      dispatcher: agent,
      signal: AbortSignal.timeout(NOTIFY_TIMEOUT_MS),
    });
    await readCapped(res.body, NOTIFY_RESPONSE_BYTES);
    if (res.status >= 200 && res.status < 300) return { delivered: true, status: res.status };
    const redirect = res.status >= 300 && res.status < 400 ? ': redirect not followed' : '';
    return { delivered: false, status: res.status, error: `answered ${res.status}${redirect}` };
  } catch (err) {
    return { delivered: false, status: null, error: errorLine(err) };
  } finally {
    await agent.destroy().catch(() => undefined);
  }
}
