/**
 * Temporal's codec-server endpoints, so that an operator reads deliveries decoded although Temporal
 * holds them encrypted (src/temporal/payload-codec.ts): `POST /codec/decode` and `POST /codec/encode` take
 * `{ payloads: [{ metadata: { key: base64 }, data: base64 }] }` and answer the same shape.
 *
 * - The Temporal CLI sends the admin token: `temporal workflow show … --codec-endpoint
 *   <BASE_URL>/codec --codec-auth "Bearer <admin token>"`.
 * - The Temporal Web UI cannot send a header of ours: an operator gives it, in their browser
 *   (the Web UI's Codec Server setting, stored in that browser only), `<BASE_URL>/codec/<Web UI
 *   key>`, which the launchers print and `GET /api/codec` answers. The key (WEB_UI_KEY, else
 *   DATA_DIR/web-ui-key) opens only these two endpoints and is rotated on its own; it is in no
 *   process's arguments and in none of the Web UI's served settings, which anyone who can load the
 *   Web UI reads.
 * - Browsers may call them from the Web UI's origin only (the origin of TEMPORAL_UI_URL): CORS
 *   answers that origin and no other.
 */
import Router from '@koa/router';
import type { Payload } from '@temporalio/common';
import getRawBody from 'raw-body';
import type { Context } from 'koa';
import type { z } from 'zod';
import { payloadsBody } from '../contract/requests';
import type { Config } from '../core/config';
import { CODEC_BODY_BYTES } from '../domain/limits';
import { invalidField, requireAdminToken, requireCredential, unauthorized } from '../core/http-errors';
import { UnknownPayloadKey, type PayloadEncryption } from '../temporal/payload-codec';
import type { Throttle } from '../core/throttle';
import type { Operation } from '../contract/operation';

/** The codec endpoint an operator gives the Temporal Web UI in their browser (its Codec Server setting). */
export function webUiCodecEndpoint(config: Pick<Config, 'baseUrl' | 'webUiKey'>): string {
  return `${config.baseUrl}/codec/${config.webUiKey}`;
}

const toPayload = (p: z.infer<typeof payloadsBody>['payloads'][number]): Payload => ({
  metadata: Object.fromEntries(Object.entries(p.metadata ?? {}).map(([k, v]) => [k, Buffer.from(v, 'base64')])),
  data: Buffer.from(p.data ?? '', 'base64'),
});
const fromPayload = (p: Payload) => ({
  metadata: Object.fromEntries(
    Object.entries(p.metadata ?? {}).map(([k, v]) => [k, Buffer.from(v ?? []).toString('base64')]),
  ),
  data: Buffer.from(p.data ?? []).toString('base64'),
});

/** A codec endpoint: with the admin token (`/codec/<operation>`), or under the Web UI's key. */
type CodecOperation = Operation & { codec: 'encode' | 'decode' };

const codecOperation = (codec: 'encode' | 'decode', withKey: boolean): CodecOperation => ({
  codec,
  method: 'post',
  path: withKey ? `/codec/:key/${codec}` : `/codec/${codec}`,
  summary:
    `${codec === 'encode' ? 'Encrypt' : 'Decrypt'} payloads as the workers do (Temporal's codec server)` +
    (withKey ? ", for the Temporal Web UI: the key is GET /api/codec's" : ''),
  access: withKey ? 'open' : 'operator',
  body: 'PayloadsToCode',
  answers: withKey ? { 200: 'Payloads', 400: 'Error', 401: 'Error' } : { 200: 'Payloads', 400: 'Error' },
});

/** The codec endpoints, as data: `codecRouter` mounts these, and the OpenAPI document shows them. */
export const CODEC_OPERATIONS: readonly CodecOperation[] = [
  codecOperation('encode', false),
  codecOperation('decode', false),
  codecOperation('encode', true),
  codecOperation('decode', true),
];

interface CodecDeps {
  config: Pick<Config, 'adminToken' | 'webUiKey' | 'temporalUiUrl'>;
  codec: PayloadEncryption;
  /** Wrong credentials, counted per client address with the API's (src/core/throttle.ts). */
  authFailures: Throttle;
}

export function codecRouter({ config, codec, authFailures }: CodecDeps): Router {
  const uiOrigin = config.temporalUiUrl ? new URL(config.temporalUiUrl).origin : null;
  const uiKey = config.webUiKey;
  const router = new Router();

  /** CORS for the Web UI's origin only: any other origin gets no CORS headers, so browsers refuse it. */
  const cors = (ctx: Context) => {
    const origin = ctx.get('origin');
    if (origin && origin === uiOrigin) {
      ctx.set('Access-Control-Allow-Origin', origin);
      ctx.set('Access-Control-Allow-Methods', 'POST, OPTIONS');
      ctx.set('Access-Control-Allow-Headers', 'content-type, x-namespace, authorization');
      ctx.set('Access-Control-Max-Age', '600');
    }
    ctx.vary('Origin');
  };
  const preflight = (ctx: Context) => {
    cors(ctx);
    ctx.status = 204;
  };

  const run = (operation: 'encode' | 'decode') => async (ctx: Context) => {
    cors(ctx);
    const raw = await getRawBody(ctx.req, { limit: CODEC_BODY_BYTES, encoding: 'utf8' });
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw);
    } catch {
      throw invalidField('body', 'invalid JSON');
    }
    const payloads = payloadsBody.parse(parsed).payloads.map(toPayload);
    let done: Payload[];
    try {
      done = operation === 'encode' ? await codec.encode(payloads) : await codec.decode(payloads);
    } catch (err) {
      // Not sealed by any key given (or altered): the caller's payloads, not a fault of the service.
      throw invalidField('payloads', err instanceof UnknownPayloadKey ? err.message : 'a payload could not be opened');
    }
    ctx.body = { payloads: done.map(fromPayload) };
  };

  const withToken = (handler: (ctx: Context) => Promise<void>) => async (ctx: Context) => {
    requireAdminToken(ctx, config.adminToken, authFailures);
    await handler(ctx);
  };
  const withUiKey = (handler: (ctx: Context) => Promise<void>) => async (ctx: Context) => {
    const { key } = ctx.params as { key: string };
    requireCredential(ctx, key, uiKey, authFailures, () => unauthorized('wrong codec key'));
    await handler(ctx);
  };

  for (const op of CODEC_OPERATIONS) {
    router.post(op.path, op.access === 'operator' ? withToken(run(op.codec)) : withUiKey(run(op.codec)));
    router.options(op.path, preflight);
  }
  return router;
}
