/**
 * The management API's shapes: request bodies and queries (validated on every request) and the
 * JSON of every answer (the OpenAPI document, src/api/openapi.ts, is generated from all of them,
 * and test/openapi.test.ts checks real answers against them).
 */
import { z } from 'zod';
import { BODY_FORMATS, type JsonValue } from '../domain/types';

const name = z.string().trim().min(1).max(200);
const id = z.string().min(1).max(100);
export const jsonValue: z.ZodType<JsonValue> = z.lazy(() =>
  z.union([z.string(), z.number(), z.boolean(), z.null(), z.array(jsonValue), z.record(jsonValue)]),
);

export const createAppBody = z
  .object({
    name,
    supportsInboundTrigger: z.boolean(),
    bodyFormat: z.enum(BODY_FORMATS).default('json'),
  })
  .strict();

export const createConnectionBody = z
  .object({
    provider: z.literal('stripe'),
    name,
    signingSecret: z.string().min(1).max(500).optional(),
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

export const listQuery = z.object({
  limit: z.coerce.number().int().min(1).max(1000).default(50),
  cursor: z.string().max(500).optional(),
});

export type CreateRobotBody = z.infer<typeof createRobotBody>;

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

/** The trigger step's card: the webhook URL once the robot has been put to work (spec 1.8), else null. */
const card = answer({ webhookUrl: z.string().url().nullable() });

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
  state: z.enum(['draft', 'at_work', 'stopped']),
  trigger: z.union([
    answer({ kind: z.literal('custom'), appId: z.string(), identifier: z.string().nullable(), card }),
    answer({
      kind: z.literal('stripe'),
      connectionId: z.string(),
      events: z.array(z.string()).nullable(),
      identifier: z.string().nullable(),
      card,
    }),
  ]),
  steps: z.array(answer({ name: z.string(), type: z.literal('compose'), template: jsonValue })),
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
  outcome: z.enum(['processed', 'dropped', 'rejected', 'failed']),
  runCount: z.number().int().optional(),
  reason: z.string().nullable().optional(),
  error: z.string().nullable().optional(),
  verified: z.boolean().nullable(),
  workflowId: z.string().nullable(),
  workflowUrl: z.string().url().nullable(),
});

export const runsPageAnswer = answer({ runs: z.array(runSummaryAnswer), nextCursor: z.string().nullable() });
export const deliveriesPageAnswer = answer({ deliveries: z.array(deliveryAnswer), nextCursor: z.string().nullable() });

export const healthAnswer = answer({ temporal: z.enum(['ok', 'unreachable']), mongodb: z.enum(['ok', 'unreachable']) });
