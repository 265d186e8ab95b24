/**
 * The cluster's one entry point (docs/cluster.md): nginx spreading senders, the API and the
 * dashboard over the receivers, round robin.
 *
 * Its contract:
 * - **Webhooks** (`/api/webhooks/`) go to the next receiver when one refuses the connection, times
 *   out, or answers 502 or 503, POST and PUT included (`non_idempotent`): a delivery sent twice is
 *   still one run, because its workflow ID comes from its dedup key. At most one other receiver is
 *   tried. A receiver answers a delivery within TEMPORAL_START_TIMEOUT_MS; WEBHOOK_READ_TIMEOUT_S
 *   is well past it.
 * - **Everything else** (the management API, the codec endpoints, the dashboard) is never sent twice
 *   once a receiver has it: a POST that times out is answered 504, not repeated on the other
 *   receiver (a bulk replay sent twice would replay everything twice): done at most once, maybe not
 *   at all, since the entry closes a connection it gave up on. Only a request no receiver
 *   took (connection refused) goes to the next. Its read timeout, API_READ_TIMEOUT_S, fits the
 *   longest bulk replay.
 * - A receiver is never marked down (max_fails=0): when Temporal is down every receiver answers
 *   503, and the sender must get that 503, not nginx's own 502. The entry answers 502 only when
 *   no receiver takes connections at all.
 * - Bodies are streamed to a receiver as they arrive, and answers to the client as they come
 *   (nothing is buffered to disk: nginx writes no temporary file), so a receiver sees the path's
 *   token before any body is taken: a request to an unknown URL is refused without nginx keeping a
 *   byte of it, and a body is held by the receiver's budget, never by nginx's disk. So once its
 *   body has begun to go to a receiver, a request is not sent to the other one (nginx cannot send
 *   it twice): a receiver that fails a webhook mid-body gives its sender a 502 or 503 to retry.
 *   Bodies are taken up to a little more than MAX_BODY_BYTES, so the receiver's own 413 answers a
 *   body too large. Slow senders are held to the receivers' own limits (HEADERS_TIMEOUT_MS,
 *   BODY_IDLE_TIMEOUT_MS).
 * - Connections: at most MAX_CONNECTIONS_PER_ADDRESS with a request under way from one client
 *   address (`limit_conn`; past it 429), idle keep-alive connections closed after
 *   KEEP_ALIVE_TIMEOUT_MS (and first, when nginx runs out of connections), and its own idle
 *   connections to the receivers closed a second sooner than the receivers would close them.
 * - The receivers see the sender's address in X-Forwarded-For (set, never appended to: a sender's
 *   own X-Forwarded-For is dropped) and the original Host.
 * - **Compression** is the entry's (gzip, from COMPRESS_MIN_BYTES on, as a receiver would): it asks the
 *   receivers for answers as they are (no Accept-Encoding past `location /`), so their CPU stays for
 *   deliveries; webhook answers are empty or one line and are never compressed.
 * - As root, nginx's workers run as `nobody`, which owns nothing: its configuration, pid file and
 *   log are root's, in a folder closed to others, and it buffers nothing to disk.
 *
 * The same function writes docker/nginx.conf for docker-compose.yml (test/unit/compose.test.ts).
 */
import fs from 'node:fs';
import path from 'node:path';
import {
  COMPRESS_MIN_BYTES,
  DEFAULT_BODY_IDLE_TIMEOUT_MS,
  DEFAULT_HEADERS_TIMEOUT_MS,
  DEFAULT_MAX_CONNECTIONS,
  DEFAULT_MAX_CONNECTIONS_PER_ADDRESS,
} from '../../domain/limits';
import { KEEP_ALIVE_TIMEOUT_MS } from '../../receiver/connections';
import { spawnManaged, waitForPort, type ManagedProcess } from '../os/managed-process';

/** Seconds a webhook may take at a receiver: past TEMPORAL_START_TIMEOUT_MS (10 s), when it answers 503 itself. */
const WEBHOOK_READ_TIMEOUT_S = 30;
/**
 * Seconds a management request may take at a receiver: a bulk replay reads, copies and starts up to
 * REPLAYS_PER_REQUEST (1,000) deliveries, some seconds each when their bodies are large.
 */
export const API_READ_TIMEOUT_S = 600;

interface EntryConfig {
  /** What nginx listens on: `127.0.0.1:3000`, or `3000` for every address. */
  listen: string;
  /** The receivers, `host:port`. */
  receivers: string[];
  /** Where nginx keeps its pid file and the bodies it buffers. */
  dir: string;
  /** A file, or `stderr`. */
  errorLog: string;
  maxBodyBytes: number;
  /** nginx's worker user, when its master runs as root. */
  user?: string;
  /** API_READ_TIMEOUT_S unless given (the cluster tests shorten it to see a stalled receiver). */
  apiReadTimeoutSeconds?: number;
  /** TLS at the entry (see EdgeTls); plain HTTP without. */
  tls?: EdgeTls;
}

/**
 * TLS at the edge (docs/security.md, TLS): the entry terminates it with this certificate and key
 * (TLS_CERT and TLS_KEY, else a pair made for the cluster or compose), and every answer then says
 * to browsers that this origin is HTTPS only (HSTS, a year).
 */
export interface EdgeTls {
  certFile: string;
  keyFile: string;
}

/**
 * TLS 1.2's suites the entry takes (review R8): ECDHE key exchange (forward secrecy) with AEAD
 * ciphers only, none of static-RSA's or CBC's, for an EC or an RSA certificate; its own order wins
 * over the client's. TLS 1.3's suites are all of that kind already.
 */
export const EDGE_TLS12_CIPHERS = [
  'ECDHE-ECDSA-AES128-GCM-SHA256',
  'ECDHE-RSA-AES128-GCM-SHA256',
  'ECDHE-ECDSA-AES256-GCM-SHA384',
  'ECDHE-RSA-AES256-GCM-SHA384',
  'ECDHE-ECDSA-CHACHA20-POLY1305',
  'ECDHE-RSA-CHACHA20-POLY1305',
];

/** HSTS's max-age once TLS is on: a year, as browsers' preload lists ask. */
const HSTS_MAX_AGE_S = 31_536_000;

/** What docker-compose.yml's `entry` runs (the receivers are one scaled service there). */
export const COMPOSE_ENTRY: Omit<EntryConfig, 'maxBodyBytes'> = {
  listen: '3000',
  receivers: ['receiver:3000'],
  dir: '/tmp/nginx',
  errorLog: 'stderr',
  // The `tls-edge` volume, the entry's alone: docker/make-tls.sh makes a self-signed pair there, or
  // copies the one given in docker/edge-tls/.
  tls: { certFile: '/tls/edge.pem', keyFile: '/tls/edge-key.pem' },
};

/** What the entry compresses (text/html always is): the API's and codec's JSON, the dashboard's scripts and styles. */
const ENTRY_GZIP_TYPES = ['application/json', 'text/javascript', 'application/javascript', 'text/css', 'image/svg+xml'];

/** Bytes above MAX_BODY_BYTES nginx still takes, so the receiver, not nginx, refuses a body too large. */
const BODY_HEADROOM_BYTES = 1024 * 1024;
const seconds = (ms: number) => `${Math.ceil(ms / 1000)}s`;

export function entryConfig(o: EntryConfig): string {
  const temp = (name: string) => `  ${name}_temp_path ${path.posix.join(o.dir, `${name}-temp`)};`;
  const proxied = (retry: string, readTimeoutSeconds: number) => [
    '      proxy_pass http://receivers;',
    '      proxy_request_buffering off;',
    '      proxy_http_version 1.1;',
    '      proxy_set_header Connection "";',
    '      proxy_set_header Host $http_host;',
    '      proxy_set_header X-Forwarded-For $remote_addr;',
    '      proxy_set_header X-Forwarded-Proto $scheme;',
    `      proxy_next_upstream ${retry};`,
    '      proxy_next_upstream_tries 2;',
    '      proxy_connect_timeout 2s;',
    `      proxy_read_timeout ${readTimeoutSeconds}s;`,
  ];
  return [
    '# The entry point in front of the receivers (src/launch/servers/nginx.ts, which writes this file).',
    ...(o.user ? [`user ${o.user};`] : []),
    'worker_processes 1;',
    `pid ${path.posix.join(o.dir, 'nginx.pid')};`,
    `error_log ${o.errorLog} warn;`,
    `events { worker_connections ${DEFAULT_MAX_CONNECTIONS}; }`,
    'http {',
    '  access_log off;',
    '  server_tokens off;',
    // The API's JSON and the dashboard's files compressed here, once, for the receivers (see `location /`).
    '  gzip on;',
    `  gzip_types ${ENTRY_GZIP_TYPES.join(' ')};`,
    `  gzip_min_length ${COMPRESS_MIN_BYTES};`,
    '  gzip_proxied any;',
    `  keepalive_timeout ${seconds(KEEP_ALIVE_TIMEOUT_MS)};`,
    '  limit_conn_zone $binary_remote_addr zone=per_address:10m;',
    `  limit_conn per_address ${DEFAULT_MAX_CONNECTIONS_PER_ADDRESS};`,
    '  limit_conn_status 429;',
    `  client_max_body_size ${o.maxBodyBytes + BODY_HEADROOM_BYTES};`,
    `  client_header_timeout ${seconds(DEFAULT_HEADERS_TIMEOUT_MS)};`,
    `  client_body_timeout ${seconds(DEFAULT_BODY_IDLE_TIMEOUT_MS)};`,
    '  proxy_max_temp_file_size 0;',
    ...['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map(temp),
    '  upstream receivers {',
    ...o.receivers.map((r) => `    server ${r} max_fails=0;`),
    '    keepalive 32;',
    `    keepalive_timeout ${seconds(KEEP_ALIVE_TIMEOUT_MS - 1000)};`,
    '  }',
    '  server {',
    ...(o.tls
      ? [
          `    listen ${o.listen} ssl;`,
          `    ssl_certificate ${o.tls.certFile};`,
          `    ssl_certificate_key ${o.tls.keyFile};`,
          '    ssl_protocols TLSv1.2 TLSv1.3;',
          `    ssl_ciphers ${EDGE_TLS12_CIPHERS.join(':')};`,
          '    ssl_prefer_server_ciphers on;',
          `    add_header Strict-Transport-Security "max-age=${HSTS_MAX_AGE_S}" always;`,
        ]
      : [`    listen ${o.listen};`]),
    '    # Deliveries: sent to the other receiver when one fails them before their body went (dedup makes it harmless).',
    '    location /api/webhooks/ {',
    ...proxied('error timeout http_502 http_503 non_idempotent', WEBHOOK_READ_TIMEOUT_S),
    '    }',
    '    # Everything else: never sent twice once a receiver has it.',
    '    location / {',
    ...proxied('error timeout http_502 http_503', o.apiReadTimeoutSeconds ?? API_READ_TIMEOUT_S),
    '      proxy_set_header Accept-Encoding "";',
    '    }',
    '  }',
    '}',
    '',
  ].join('\n');
}

interface NginxOptions {
  bin: string;
  dir: string;
  port: number;
  receiverPorts: number[];
  maxBodyBytes: number;
  apiReadTimeoutSeconds?: number;
  logFile?: string;
  tls?: EdgeTls;
}

/** The unprivileged user and group nginx's workers run as when it is started as root (Debian's). */
const NGINX_WORKER_USER = 'nobody';
const NGINX_WORKER_GROUP = 'nogroup';

/** Writes the config into its folder and starts nginx in the foreground on loopback. */
export async function startNginx(o: NginxOptions): Promise<ManagedProcess> {
  const asRoot = process.getuid?.() === 0;
  fs.mkdirSync(o.dir, { recursive: true });
  const conf = path.join(o.dir, 'nginx.conf');
  const errorLog = path.join(o.dir, 'error.log');
  fs.writeFileSync(
    conf,
    entryConfig({
      listen: `127.0.0.1:${o.port}`,
      receivers: o.receiverPorts.map((p) => `127.0.0.1:${p}`),
      dir: o.dir,
      errorLog,
      maxBodyBytes: o.maxBodyBytes,
      user: asRoot ? `${NGINX_WORKER_USER} ${NGINX_WORKER_GROUP}` : undefined,
      apiReadTimeoutSeconds: o.apiReadTimeoutSeconds,
      tls: o.tls,
    }),
  );
  const args = ['-p', o.dir, '-c', conf, '-e', errorLog, '-g', 'daemon off;'];
  const proc = spawnManaged('entry', o.bin, args, { logFile: o.logFile });
  await waitForPort(o.port, proc);
  return proc;
}
