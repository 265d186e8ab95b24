/** Where Temporal and MongoDB are, or how the embedded and cluster launchers start them. */
import { flag, port, positiveInt, readableFile, text, url, wholeNumber } from './fields';

export const temporalSettings = {
  TEMPORAL_ADDRESS: text
    .optional()
    .describe(
      'An existing Temporal frontend (`host:port`, or a unix socket as `unix:///path`); wins over the ' +
        'embedded one',
    ),
  TEMPORAL_TLS_CA: readableFile
    .optional()
    .describe("TLS to that Temporal: the server's CA ([operations.md](operations.md#production))"),
  TEMPORAL_TLS_CERT: readableFile.optional().describe("Mutual TLS to that Temporal: this client's certificate"),
  TEMPORAL_TLS_KEY: readableFile.optional().describe("Mutual TLS to that Temporal: this client's key"),
  TEMPORAL_TLS_SERVER_NAME: text.optional().describe("The name to check on that Temporal's certificate"),
  TEMPORAL_TLS: flag
    .optional()
    .describe("`1`: TLS with the system's CAs; on anyway when any `TEMPORAL_TLS_*` is set (`0` turns it off)"),
  TEMPORAL_NAMESPACE: text.default('default').describe('Temporal namespace'),
  TEMPORAL_TASK_QUEUE: text.default('webhook-triggers').describe('Task queue of the worker'),
  TEMPORAL_START_TIMEOUT_MS: positiveInt('milliseconds')
    .default(10_000)
    .describe(
      "How long the receiver waits for Temporal to accept a start before answering 503; a workflow's " +
        "description (a repeat's original, the body sweep) waits as long",
    ),
  TEMPORAL_UI_URL: url
    .optional()
    .describe('Base of the links from deliveries and runs to their workflows (`workflowUrl`)'),
  MONGODB_URI: text
    .regex(/^mongodb(\+srv)?:\/\//, 'must start with mongodb:// or mongodb+srv://')
    .optional()
    .describe('An existing MongoDB (`mongodb://…/dbname`); wins over FerretDB'),
  EMBEDDED_TEMPORAL_PORT: port
    .default(7233)
    .describe(
      "Port of the embedded Temporal dev server, in the dev server's own network namespace: outside it the " +
        'gRPC port is `DATA_DIR/temporal-sockets/grpc.sock` (`unix:///…`); where namespaces cannot be made, a ' +
        'plain loopback port. The embedded FerretDB opens no port: its unix socket is ' +
        '`DATA_DIR/ferretdb/mongodb.sock`',
    ),
  EMBEDDED_TEMPORAL_UI_PORT: port
    .default(8233)
    .describe("The embedded Temporal Web UI's loopback port, behind the admin token"),
  EMBEDDED_TEMPORAL_METRICS_PORT: port
    .optional()
    .describe(
      "Port of the embedded Temporal dev server's own Prometheus metrics (`/metrics`, loopback only): its " +
        "persistence requests, tasks and latencies by operation. `npm run bench`'s profile reads them " +
        '([benchmark.md](benchmark.md))',
    ),
  CLUSTER_RECEIVERS: wholeNumber({ min: 1, max: 16 })
    .default(2)
    .describe(
      '`npm run start:cluster` only: receivers (on `PORT`+1…) behind the entry on `PORT` ([cluster.md](cluster.md))',
    ),
  CLUSTER_WORKERS: wholeNumber({ min: 1, max: 16 }).default(2).describe('`npm run start:cluster` only: workers'),
  CLUSTER_POSTGRES_PORT: port.default(5433).describe("`npm run start:cluster` only: PostgreSQL's port"),
};
