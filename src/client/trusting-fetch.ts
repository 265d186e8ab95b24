/**
 * A `fetch` that trusts one CA of its own, for the cluster's entry (its TLS is its own certificate:
 * docs/cluster.md), which the global `fetch` refuses (it trusts the system's CAs only). The bench
 * and the cluster's launcher test hand it to `apiClient` (./api-client.ts, as its `fetch`) and send webhooks with it.
 * Over node:https: bodies are strings (JSON, CSV) or none.
 */
import fs from 'node:fs';
import https from 'node:https';

/** Statuses whose answer has no body (a Response refuses one). */
const NO_BODY = new Set([101, 103, 204, 205, 304]);

/**
 * Trusts `ca`: the certificate itself, or the file that holds it, read at each request (so a CA the
 * cluster makes once it starts may be named before). `servername` is the name the certificate must
 * hold when the URL names an address (the cluster's entry's is `localhost`); else the URL's host.
 */
export function trustingFetch(
  ca: Buffer | string,
  { servername }: { servername?: string } = {},
): (url: string, init?: RequestInit) => Promise<Response> {
  return (url, init = {}) =>
    new Promise<Response>((resolve, reject) => {
      const req = https.request(
        url,
        {
          method: init.method ?? 'GET',
          headers: init.headers as Record<string, string> | undefined,
          ca: typeof ca === 'string' ? fs.readFileSync(ca) : ca,
          ...(servername ? { servername } : {}),
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            const headers = new Headers();
            for (const [k, v] of Object.entries(res.headers)) if (typeof v === 'string') headers.set(k, v);
            const status = res.statusCode ?? 502;
            const body = NO_BODY.has(status) || chunks.length === 0 ? null : Buffer.concat(chunks);
            resolve(new Response(body, { status, headers }));
          });
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end(typeof init.body === 'string' ? init.body : undefined);
    });
}
