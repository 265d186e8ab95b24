/**
 * The management API's shapes: request bodies and queries (validated on every request) and the
 * JSON of every answer (the OpenAPI document, src/api/openapi.ts, is generated from all of them,
 * and test/openapi.test.ts checks real answers against them).
 */
import { z } from 'zod';
import { BODY_FORMATS, ROBOT_STATES, type JsonValue } from '../domain/types';
import { HMAC_ALGORITHMS, isStandardWebhooksSecret, SIGNATURE_ENCODINGS } from '../domain/verification';
import { MAX_GRACE_HOURS, DEFAULT_GRACE_HOURS } from '../robots/trigger-tokens';
import { MIN_SIGNING_SECRET_LENGTH } from '../domain/limits';

const name = z.string().trim().min(1).max(200);
const id = z.string().min(1).max(100);
export const jsonValue: z.ZodType<JsonValue> = z.lazy(() =>
  z.union([z.string(), z.number(), z.boolean(), z.null(), z.array(jsonValue), z.record(jsonValue)]),
);

/** A signing secret: long enough that nobody finds it from one captured request (MIN_SIGNING_SECRET_LENGTH). */
const secret = z
  .string()
  .min(MIN_SIGNING_SECRET_LENGTH, `must be at least ${MIN_SIGNING_SECRET_LENGTH} characters`)
  .max(500);
/** How the app's senders sign their requests (checked before any run); the secret is write-only. */
export const verificationBody = z.discriminatedUnion('scheme', [
  z
    .object({
      scheme: z.literal('standard-webhooks'),
      secret: secret
        .regex(/^(whsec_)?[A-Za-z0-9+/=]+$/)
        .refine(isStandardWebhooksSecret, 'a standard-webhooks secret: whsec_ followed by base64'),
    })
    .strict(),
  z.object({ scheme: z.literal('github'), secret }).strict(),
  z.object({ scheme: z.literal('shopify'), secret }).strict(),
  z.object({ scheme: z.literal('slack'), secret }).strict(),
  z
    .object({
      scheme: z.literal('hmac'),
      secret,
      header: z.string().regex(/^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,100}$/, 'a header name'),
      algorithm: z.enum(HMAC_ALGORITHMS),
      encoding: z.enum(SIGNATURE_ENCODINGS),
      prefix: z.string().max(100).optional(),
    })
    .strict(),
]);

export const createAppBody = z
  .object({
    name,
    supportsInboundTrigger: z.boolean(),
    bodyFormat: z.enum(BODY_FORMATS).default('json'),
    verification: verificationBody.nullable().optional(),
  })
  .strict();

/** Fields left out keep their value; `verification: null` removes the check. */
export const updateAppBody = z
  .object({
    name: name.optional(),
    bodyFormat: z.enum(BODY_FORMATS).optional(),
    verification: verificationBody.nullable().optional(),
  })
  .strict()
  .refine((b) => Object.keys(b).length > 0, 'name at least one field to change');

export const createConnectionBody = z
  .object({
    provider: z.literal('stripe'),
    name,
    signingSecret: secret.optional(),
  })
  .strict();

const step = z
  .object({
    name,
    type: z.literal('compose'),
    template: jsonValue.refine((v) => v !== undefined, 'required'),
  })
  .strict();

const trigger = z
  .object({
    appId: id.optional(),
    connectionId: id.optional(),
    events: z.array(z.string().min(1).max(200)).max(100).optional(),
  })
  .strict()
  .superRefine((t, ctx) => {
    if (!t.appId === !t.connectionId) {
      ctx.addIssue({
        code: 'custom',
        path: ['appId'],
        message: 'set exactly one of appId (custom app) or connectionId (payment provider)',
      });
    }
    if (t.events && !t.connectionId) {
      ctx.addIssue({ code: 'custom', path: ['events'], message: 'events applies to a payment provider trigger only' });
    }
  });

export const createRobotBody = z
  .object({
    name,
    trigger,
    steps: z.array(step).max(50).default([]),
  })
  .strict();

/** Fields left out keep their value. New steps apply to deliveries accepted from then on. */
export const updateRobotBody = z
  .object({ name: name.optional(), steps: z.array(step).max(50).optional() })
  .strict()
  .refine((b) => Object.keys(b).length > 0, 'name at least one field to change');

export const rotateTokenBody = z
  .object({ graceHours: z.number().int().min(0).max(MAX_GRACE_HOURS).default(DEFAULT_GRACE_HOURS) })
  .strict();

const deliveryOutcome = z.enum(['processed', 'dropped', 'rejected', 'failed']);

/** Which deliveries to replay: those of an outcome, received since a time, from a cursor on (newest first). */
export const bulkReplayBody = z
  .object({
    outcome: deliveryOutcome,
    since: z.string().datetime().optional(),
    cursor: z.string().max(500).optional(),
  })
  .strict();

export const listQuery = z.object({
  limit: z.coerce.number().int().min(1).max(1000).default(50),
  cursor: z.string().max(500).optional(),
});

export type CreateRobotBody = z.infer<typeof createRobotBody>;
export type VerificationBody = z.infer<typeof verificationBody>;
export type StepBody = z.infer<typeof step>;

// ---- Answers -------------------------------------------------------------------------------

/** An answer has exactly the fields described: a field the document does not name is a bug (test/openapi.test.ts). */
const answer = <T extends z.ZodRawShape>(shape: T) => z.object(shape).strict();

/** Times are ISO 8601 in UTC. */
const time = z.string().datetime();

export const errorAnswer = answer({
  error: z.string(),
  /** The request field the error is about (`body` for the body as a whole). */
  field: z.string().optional(),
});

export const appAnswer = answer({
  id: z.string(),
  name: z.string(),
  supportsInboundTrigger: z.boolean(),
  bodyFormat: z.enum(BODY_FORMATS),
  /** The signature scheme and its settings; the secret is never returned. */
  verification: answer({
    scheme: z.enum(['standard-webhooks', 'github', 'shopify', 'slack', 'hmac']),
    header: z.string().optional(),
    algorithm: z.enum(HMAC_ALGORITHMS).optional(),
    encoding: z.enum(SIGNATURE_ENCODINGS).optional(),
    prefix: z.string().optional(),
  }).nullable(),
  createdAt: time,
});

export const connectionAnswer = answer({
  id: z.string(),
  provider: z.literal('stripe'),
  name: z.string(),
  /** The secret itself is never returned. */
  hasSigningSecret: z.boolean(),
  createdAt: time,
});

/**
 * The trigger step's card: the webhook URL once the robot has been put to work (spec 1.8), else
 * null; after a rotation, until when the previous URL keeps working. Left out of the list of robots
 * (the URL's token is its credential): read one robot for it.
 */
const card = answer({ webhookUrl: z.string().url().nullable(), previousTokenExpiresAt: time.nullable() });

const runCounts = answer({
  total: z.number().int(),
  running: z.number().int(),
  succeeded: z.number().int(),
  failed: z.number().int(),
});
const deliveryCounts = answer({
  processed: z.number().int(),
  dropped: z.number().int(),
  rejected: z.number().int(),
  failed: z.number().int(),
});

export const robotAnswer = answer({
  id: z.string(),
  name: z.string(),
  state: z.enum(ROBOT_STATES),
  trigger: z.union([
    answer({ kind: z.literal('custom'), appId: z.string(), identifier: z.string().nullable(), card: card.optional() }),
    answer({
      kind: z.literal('stripe'),
      connectionId: z.string(),
      events: z.array(z.string()).nullable(),
      identifier: z.string().nullable(),
      card: card.optional(),
    }),
  ]),
  steps: z.array(answer({ name: z.string(), type: z.literal('compose'), template: jsonValue })),
  /** Version of the steps: each edit adds one; a delivery's runs execute the version it was accepted with. */
  stepsVersion: z.number().int(),
  createdAt: time,
  /** With `GET /api/robots/:id` only. */
  runCounts: runCounts.optional(),
  deliveryCounts: deliveryCounts.optional(),
  lastDeliveryAt: time.nullable().optional(),
});

const runStatus = z.enum(['running', 'succeeded', 'failed']);

/** A run in the run history: `trigger` when its JSON is at most 1 KiB, else `triggerTruncated`. */
export const runSummaryAnswer = answer({
  id: z.string(),
  robotId: z.string(),
  deliveryId: z.string(),
  status: runStatus,
  trigger: jsonValue.optional(),
  triggerTruncated: z.literal(true).optional(),
  createdAt: time,
  finishedAt: time.nullable(),
});

export const runAnswer = answer({
  id: z.string(),
  robotId: z.string(),
  deliveryId: z.string(),
  status: runStatus,
  trigger: jsonValue,
  steps: z.array(
    answer({
      name: z.string(),
      status: z.enum(['pending', 'succeeded', 'failed']),
      output: jsonValue.optional(),
      error: z.string().optional(),
    }),
  ),
  verified: z.boolean().nullable(),
  createdAt: time,
  finishedAt: time.nullable(),
  /** The run's workflow in the Temporal Web UI (TEMPORAL_UI_URL), when it is known. */
  workflowUrl: z.string().url().nullable(),
});

export const deliveryAnswer = answer({
  id: z.string(),
  robotId: z.string(),
  receivedAt: time,
  format: z.enum(BODY_FORMATS),
  contentType: z.string().nullable(),
  size: z.number().int(),
  outcome: deliveryOutcome,
  runCount: z.number().int().optional(),
  reason: z.string().nullable().optional(),
  error: z.string().nullable().optional(),
  verified: z.boolean().nullable(),
  workflowId: z.string().nullable(),
  workflowUrl: z.string().url().nullable(),
  /** The steps version its runs execute (absent for deliveries recorded before versions). */
  stepsVersion: z.number().int().optional(),
  /** Whether its raw body is kept, so it can be replayed. */
  replayable: z.boolean(),
  /** The delivery it replays. */
  replayOf: z.string().nullable(),
  /** The request headers kept with it (dedup and signature headers). */
  headers: z.record(z.string()),
});

export const replayAnswer = answer({ deliveryId: z.string() });
export const appsAnswer = answer({ apps: z.array(appAnswer) });
export const connectionsAnswer = answer({ connections: z.array(connectionAnswer) });
export const robotsAnswer = answer({ robots: z.array(robotAnswer) });
/** Replayed deliveries' new ids; `nextCursor` continues with the deliveries this request did not reach. */
export const bulkReplayAnswer = answer({ deliveryIds: z.array(z.string()), nextCursor: z.string().nullable() });

export const runsPageAnswer = answer({ runs: z.array(runSummaryAnswer), nextCursor: z.string().nullable() });
export const deliveriesPageAnswer = answer({ deliveries: z.array(deliveryAnswer), nextCursor: z.string().nullable() });

export const healthAnswer = answer({ temporal: z.enum(['ok', 'unreachable']), mongodb: z.enum(['ok', 'unreachable']) });

/** Temporal's codec-server shape (src/codec-routes.ts): payloads with base64 metadata values and data. */
const base64 = z.string().regex(/^[A-Za-z0-9+/]*={0,2}$/, 'base64');
export const payloadsBody = z
  .object({
    payloads: z.array(z.object({ metadata: z.record(base64).optional(), data: base64.optional() }).strict()),
  })
  .strict();
export const payloadsAnswer = answer({
  payloads: z.array(answer({ metadata: z.record(z.string()), data: z.string() })),
});
/** Where the Temporal Web UI's codec endpoint is: its key is derived from the admin token. */
export const codecAnswer = answer({ webUiEndpoint: z.string().url() });
