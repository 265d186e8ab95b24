/** The service's own settings: where it listens, its data folder, its keys, its metrics ports. */
import { z } from 'zod';
import { trustedProxyRanges } from '../client-address';
import { adminTokenSchema, secretsKeySchema, webUiKeySchema } from '../config-secrets';
import { flag, port, readableFile, text, url } from './fields';

export const serviceSettings = {
  PORT: port.default(3000).describe('HTTP port of the receiver and the management API'),
  HOST: text
    .optional()
    .describe(
      'The address `PORT` listens on; `npm run start:cluster` gives its receivers `127.0.0.1`, behind the entry',
    ),
  BASE_URL: url
    .optional()
    .describe(
      'Start of the webhook URLs shown on trigger cards. Production refuses `http://` (unless ' +
        "`ALLOW_HTTP_BASE_URL=1`); `npm run start:cluster` refuses any scheme but its entry's, `https://` " +
        '([cluster.md](cluster.md#what-runs))',
    ),
  ALLOW_HTTP_BASE_URL: flag
    .default('0')
    .describe(
      '`1`: production takes an `http://` `BASE_URL`, for TLS that ends in front of this service on the same ' +
        'private network',
    ),
  TLS_CERT: readableFile
    .optional()
    .describe(
      "`npm run start:cluster`: the entry's certificate (with its chain); without it and `TLS_KEY` it makes a " +
        'self-signed pair in `DATA_DIR/edge-tls/`',
    ),
  TLS_KEY: readableFile.optional().describe("`npm run start:cluster`: the entry's key (give both, or neither)"),
  DATA_DIR: text.default('./.data').describe("Data folder: embedded servers' files, generated secrets, logs"),
  ADMIN_TOKEN: adminTokenSchema
    .optional()
    .describe('Bearer token of the management API (16+ characters; a kept file that is not stops the start)'),
  SECRETS_KEY: secretsKeySchema
    .optional()
    .describe('32 bytes, base64: encrypts stored signing secrets and every payload in Temporal (AES-256-GCM)'),
  /** Keys SECRETS_KEY replaced, comma-separated: still read (sealed secrets, encrypted payloads), never written. */
  SECRETS_KEY_PREVIOUS: z
    .string()
    .transform((v) => v.split(',').filter(Boolean))
    .pipe(z.array(secretsKeySchema))
    .optional()
    .describe(
      'Keys `SECRETS_KEY` replaced, comma-separated: what they sealed is still read; `npm run reseal` seals the ' +
        'stored secrets again with `SECRETS_KEY` ([security.md](security.md#keys))',
    ),
  WEB_UI_KEY: webUiKeySchema
    .optional()
    .describe(
      "The Temporal Web UI's codec key (16+ letters, digits, `-`, `_`): it opens the codec endpoints only, and " +
        'is given to a browser by its operator ' +
        '([operations.md](operations.md#the-codec-server-reading-encrypted-payloads)); change it (or remove the ' +
        'file) and restart to rotate it',
    ),
  ACCEPT_UNSEALED_PAYLOADS: flag
    .default('0')
    .describe(
      '`1`: the workers take workflow inputs nobody sealed (only while deliveries of a version before 0.5 are ' +
        'still open); off, such a start is refused ([security.md](security.md))',
    ),
  TRUST_PROXY: z
    .string()
    .default('0')
    .transform((v, ctx) => {
      const ranges = trustedProxyRanges(v);
      if (!Array.isArray(ranges)) ctx.addIssue({ code: 'custom', message: ranges.problem });
      return Array.isArray(ranges) ? ranges : [];
    })
    .describe(
      'Proxies whose `X-Forwarded-For` names the client (refusals are counted by it): `1` for a proxy on ' +
        'loopback or a private network (the cluster and compose set it), or a comma-separated list of ' +
        'addresses and CIDR ranges; from any other peer the header is ignored',
    ),
  RECEIVER_METRICS_PORT: port
    .default(9463)
    .describe(
      "The receiver's metrics and health port (`GET /metrics`, `GET /healthz`) and the Temporal Web UI's codec " +
        "endpoint (decode only, under `WEB_UI_KEY`), off the senders' port; `0` for none (then the Web UI has " +
        'no codec endpoint)',
    ),
  METRICS_HOST: text
    .default('127.0.0.1')
    .describe(
      "The address the receiver's and the worker's metrics ports listen on; `0.0.0.0` to open them to the " +
        "operator's network (compose does, on its internal network)",
    ),
  WORKER_METRICS_PORT: port
    .default(9464)
    .describe("The worker's Prometheus port (its metrics and the Temporal SDK's); `0` for none"),
  SDK_METRICS_PORT: port
    .default(9465)
    .describe("Loopback port of the Temporal SDK's exporter, read by the worker's metrics port"),
};
