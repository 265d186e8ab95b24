/**
 * Temporal's codec-server endpoints, so that an operator reads deliveries decoded although Temporal
 * holds them encrypted (src/temporal/payload-codec.ts). They take `{ payloads: [{ metadata: { key:
 * base64 }, data: base64 }] }` and answer the same shape.
 *
 * - **With the admin token**, on the service's port (`codecRouter`): `POST /codec/decode` and
 *   `POST /codec/encode`, for the Temporal CLI: `temporal workflow show … --codec-endpoint
 *   <BASE_URL>/codec --codec-auth "Bearer <admin token>"`. Sealing is for the admin token alone:
 *   a sealed payload is what the workers trust (src/domain/unsealed.ts).
 * - **Under the Web UI's key**, on the receiver's metrics port (`webUiCodecRouter`), the
 *   operator's side (loopback by default, METRICS_HOST), never the senders' port: `POST
 *   /codec/<Web UI key>/decode` only. The Temporal Web UI cannot send a header of ours: an
 *   operator gives it, in their browser (the Web UI's Codec Server setting, stored in that browser
 *   only), `webUiCodecEndpoint`, which the launchers print and `GET /api/codec` answers. The Web UI
 *   reads, so the key opens decode and nothing else (review N6 (b): encode under it was a sealing
 *   oracle). The key (WEB_UI_KEY, else DATA_DIR/web-ui-key) is rotated on its own; it is in no
 *   process's arguments and in none of the Web UI's served settings, which anyone who can load
 *   the Web UI reads.
 * - Browsers may call the Web UI's endpoint from the Web UI's origin only (the origin of
 *   TEMPORAL_UI_URL): CORS answers that origin and no other.
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

/** Addresses that mean "this machine" to the operator's browser: the endpoint names them `localhost`. */
const LOCAL_HOSTS = new Set(['127.0.0.1', '0.0.0.0', '::', '::1', 'localhost']);

/** Where the Web UI's codec endpoint is served: the receiver's metrics port (`key` in its path). */
export function webUiCodecBase(config: Pick<Config, 'receiverMetricsPort' | 'metricsHost'>): string {
  const host = LOCAL_HOSTS.has(config.metricsHost)
    ? 'localhost'
    : config.metricsHost.includes(':')
      ? `[${config.metricsHost}]`
      : config.metricsHost;
  return `http://${host}:${config.receiverMetricsPort}/codec`;
}

/** The codec endpoint an operator gives the Temporal Web UI in their browser (its Codec Server setting). */
export function webUiCodecEndpoint(config: Pick<Config, 'receiverMetricsPort' | 'metricsHost' | 'webUiKey'>): string {
  return `${webUiCodecBase(config)}/${config.webUiKey}`;
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

/** A codec endpoint of the service's port: the admin token's (`/codec/<operation>`). */
type CodecOperation = Operation & { codec: 'encode' | 'decode' };

const codecOperation = (codec: 'encode' | 'decode'): CodecOperation => ({
  codec,
  operationId: `${codec}Payloads`,
  method: 'post',
  path: `/codec/${codec}`,
  summary: `${codec === 'encode' ? 'Encrypt' : 'Decrypt'} payloads as the workers do (Temporal's codec server)`,
  access: 'operator',
  body: 'PayloadsToCode',
  answers: { 200: 'Payloads', 400: 'Error' },
});

/** The service port's codec endpoints, as data: `codecRouter` mounts them, the OpenAPI document shows them. */
export const CODEC_OPERATIONS: readonly CodecOperation[] = [codecOperation('encode'), codecOperation('decode')];

interface CodecDeps {
  config: Pick<Config, 'adminToken' | 'webUiKey' | 'temporalUiUrl'>;
  codec: PayloadEncryption;
  /** Wrong credentials, counted per client address with the API's (src/core/throttle.ts). */
  authFailures: Throttle;
}

/** Reads a codec request's payloads and answers them encoded or decoded. */
const coding = (codec: PayloadEncryption, operation: 'encode' | 'decode') => async (ctx: Context) => {
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

/** The service port's codec endpoints: encode and decode, with the admin token. */
export function codecRouter({ config, codec, authFailures }: CodecDeps): Router {
  const router = new Router();
  for (const op of CODEC_OPERATIONS) {
    const run = coding(codec, op.codec);
    router.post(op.path, async (ctx) => {
      requireAdminToken(ctx, config.adminToken, authFailures);
      await run(ctx);
    });
  }
  return router;
}

/** The path of the Web UI's endpoint on the metrics port: decode only. */
export const WEB_UI_DECODE_PATH = '/codec/:key/decode';

/** The metrics port's codec endpoint, for the Web UI: decode under its key, with CORS for its origin. */
export function webUiCodecRouter({ config, codec, authFailures }: CodecDeps): Router {
  const uiOrigin = config.temporalUiUrl ? new URL(config.temporalUiUrl).origin : null;
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
  const decode = coding(codec, 'decode');
  router.post(WEB_UI_DECODE_PATH, async (ctx) => {
    cors(ctx);
    const { key } = ctx.params as { key: string };
    requireCredential(ctx, key, config.webUiKey, authFailures, () => unauthorized('wrong codec key'));
    await decode(ctx);
  });
  router.options(WEB_UI_DECODE_PATH, (ctx) => {
    cors(ctx);
    ctx.status = 204;
  });
  return router;
}
