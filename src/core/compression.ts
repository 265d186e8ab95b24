/**
 * Compression (docs/operations.md, "Compression and caching"): the management API's JSON, the codec
 * endpoints' and the dashboard's files are sent with brotli or gzip when the client accepts one
 * (`Accept-Encoding`; the client's preference, its first named at equal weight), from COMPRESS_MIN_BYTES on, with
 * `Vary: Accept-Encoding`. The body is compressed whole (in libuv's thread pool), so the answer keeps
 * its Content-Length (the access log's `bytes`). Never on the webhook routes: their answers are empty
 * or one line, and the router is left to answer senders without this middleware on its path at all.
 */
import type { Context, Middleware } from 'koa';
import { Stream } from 'node:stream';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { COMPRESS_MIN_BYTES } from '../domain/limits';

/** The webhook routes (src/receiver/webhooks.ts), matched as the router matches them: in any case. */
const WEBHOOK_ROUTES = /^\/api\/webhooks\//i;
/** Types worth compressing: text of any kind, JSON, JavaScript, SVG. Images and archives are already compressed. */
const COMPRESSIBLE = /^(text\/|application\/(json|javascript|xml)|image\/svg\+xml)/;

const gzip = promisify(zlib.gzip);
const brotli = promisify(zlib.brotliCompress);
/** Brotli quality 4: about gzip's speed at its default level, and smaller (its default, 11, is for built files). */
const BROTLI_QUALITY = 4;

function compress(encoding: 'br' | 'gzip', raw: Buffer): Promise<Buffer> {
  if (encoding === 'gzip') return gzip(raw);
  return brotli(raw, {
    params: {
      [zlib.constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY,
      [zlib.constants.BROTLI_PARAM_SIZE_HINT]: raw.length,
    },
  });
}

/** The answer's body as bytes (a JSON object as Koa would write it), or null for a stream. */
function bodyBytes(ctx: Context): Buffer | null {
  const body: unknown = ctx.body;
  if (Buffer.isBuffer(body)) return body;
  if (typeof body === 'string') return Buffer.from(body);
  if (body instanceof Stream) return null;
  return Buffer.from(JSON.stringify(body));
}

export function compressAnswers(): Middleware {
  return async (ctx, next) => {
    if (WEBHOOK_ROUTES.test(ctx.path)) return void (await next());
    await next();
    if (ctx.body == null || ctx.method === 'HEAD' || ctx.response.get('Content-Encoding')) return;
    if (!COMPRESSIBLE.test(ctx.response.type)) return;
    ctx.vary('Accept-Encoding');
    const raw = bodyBytes(ctx);
    if (!raw) return;
    const encoding = raw.length < COMPRESS_MIN_BYTES ? false : ctx.acceptsEncodings('br', 'gzip', 'identity');
    if (encoding !== 'br' && encoding !== 'gzip') {
      // Written as it is, once: Koa would serialise a JSON object again to learn its length.
      if (!Buffer.isBuffer(ctx.body) && typeof ctx.body !== 'string') ctx.body = raw;
      return;
    }
    ctx.body = await compress(encoding, raw);
    ctx.set('Content-Encoding', encoding);
  };
}
