/**
 * The JSON of every answer of the management API (the OpenAPI document, src/contract/openapi.ts, is
 * generated from them, and test/openapi.test.ts checks real answers against them); a robot's history's
 * (runs, deliveries, replays) are in ./history-answers.ts, its workspaces' in ./workspace-answers.ts.
 */
import { z } from 'zod';
import { BODY_FORMATS, ROBOT_STATES } from '../domain/types';
import { SENDER_NAMES } from '../domain/senders/catalog';
import { HMAC_ALGORITHMS, SIGNATURE_ENCODINGS } from '../domain/senders/catalog';
import { FIELD_TYPES } from '../domain/fields';
import { RULE_OPS } from '../domain/trigger-rules';
import { DEDUP_KEYS } from '../domain/dedup';
import { jsonValue } from './requests';
import { answer, time } from './answer-shape';
import { WORKSPACE_ANSWERS } from './workspace-answers';
import { HISTORY_ANSWERS } from './history-answers';
import { NOTIFICATION_ANSWERS } from './notification-answers';
import { ISSUE_ANSWERS } from './issue-schemas';

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
  /**
   * Its sender (src/domain/senders/catalog.ts) and the settings that are no secret; a secret is
   * never returned. `secretFromHandshake`: for a sender that gives its secret in its handshake,
   * whether the app kept one before 0.11 (`kept`); since then each robot's URL has its own,
   * confirmed on its card (`handshakeSecrets`).
   */
  verification: answer({
    scheme: z.enum(SENDER_NAMES),
    header: z.string().optional(),
    username: z.string().optional(),
    publicKey: z.string().optional(),
    algorithm: z.enum(HMAC_ALGORITHMS).optional(),
    encoding: z.enum(SIGNATURE_ENCODINGS).optional(),
    prefix: z.string().optional(),
    secretFromHandshake: z.enum(['waiting', 'kept']).optional(),
  }).nullable(),
  /** What its deliveries are told apart by; `windowSeconds` absent: the key's default (72 h, 1 h for a body digest). */
  dedup: answer({
    key: z.enum(DEDUP_KEYS),
    header: z.string().optional(),
    path: z.string().optional(),
    windowSeconds: z.number().int().optional(),
  }),
  createdAt: time,
});

export const connectionAnswer = answer({
  id: z.string(),
  provider: z.literal('stripe'),
  name: z.string(),
  /** The secret itself is never returned. */
  hasSigningSecret: z.boolean(),
  /** The event types its new robots start with (empty: none chosen, every event). */
  events: z.array(z.string()),
  createdAt: time,
});

/** A secret a sender gave in a handshake, as editors see it: never the secret (src/robots/handshake-secrets.ts). */
const handshakeSecret = answer({
  fingerprint: z.string(),
  receivedAt: time,
  /** The client address the handshake came from. */
  address: z.string(),
  confirmedAt: time.optional(),
});

/**
 * The trigger step's card: the webhook URL once the robot has been put to work (spec 1.8), else
 * null; after a rotation, until when the previous URL keeps working. The URL's token is the
 * senders' credential, so `webhookUrl` is shown to editors, owners and the admin only (each read
 * recorded in the audit log, at most hourly per reader), and everyone sees `maskedUrl` (its token's
 * last 4 characters). Left out of the list of robots: read one robot for it. `handshakeSecrets`
 * (editors and up, senders that give their secret in a handshake): the confirmed one and those
 * waiting for an editor's confirmation.
 */
const card = answer({
  webhookUrl: z.url().nullable().optional(),
  maskedUrl: z.string().nullable(),
  previousTokenExpiresAt: time.nullable(),
  handshakeSecrets: answer({ confirmed: handshakeSecret.nullable(), pending: z.array(handshakeSecret) }).optional(),
});

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
  handshake: z.number().int(),
  filtered: z.number().int(),
  duplicate: z.number().int(),
});

/** Conditions a delivery must meet before a run is made (src/domain/trigger-rules.ts). */
const triggerRules = answer({
  match: z.enum(['all', 'any']),
  conditions: z.array(answer({ field: z.string(), op: z.enum(RULE_OPS), value: jsonValue.optional() })),
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
  /** Version of the steps and rules: each edit adds one; a delivery follows the version it was accepted with. */
  stepsVersion: z.number().int(),
  /** The trigger rules, or null for none. */
  rules: triggerRules.nullable(),
  createdAt: time,
  /** With `GET /api/robots/:id` only. */
  runCounts: runCounts.optional(),
  deliveryCounts: deliveryCounts.optional(),
  lastDeliveryAt: time.nullable().optional(),
});

/** The paths a robot's recent deliveries carried (src/domain/fields.ts): what its steps can read. */
const robotFieldsAnswer = answer({
  /** How many deliveries they come from (the last 100 whose body was parsed). */
  deliveries: z.number().int(),
  /** Some delivery carried more paths than are kept (200 per delivery). */
  truncated: z.boolean(),
  fields: z.array(
    answer({
      /** `customer.email`, `items[0].sku`, `["a.b"]`; `''` is the whole trigger data. */
      path: z.string(),
      /** What a step's template holds to read it. */
      placeholder: z.string(),
      /** The path it is in, or null at the top. */
      parent: z.string().nullable(),
      types: z.array(z.enum(FIELD_TYPES)),
      /** A value seen there (newest first), cut to 40 characters; `[redacted]` under a secret's name. */
      example: z.string().nullable(),
      /** In how many of those deliveries it appeared. */
      seenIn: z.number().int(),
    }),
  ),
});

const appsAnswer = answer({ apps: z.array(appAnswer) });
const connectionsAnswer = answer({ connections: z.array(connectionAnswer) });
/**
 * A page of robots; `nextCursor` continues with older ones, `prevCursor` (as `before`) with newer
 * ones (null: none left); `total` robots match the query, `offset` of them come before this page.
 */
const robotsAnswer = answer({
  robots: z.array(robotAnswer),
  nextCursor: z.string().nullable(),
  prevCursor: z.string().nullable(),
  total: z.number().int(),
  offset: z.number().int(),
});

/** Temporal's codec-server shape (src/codec/routes.ts): payloads, as ./requests.ts `payloadsBody`. */
const payloadsAnswer = answer({
  payloads: z.array(answer({ metadata: z.record(z.string(), z.string()), data: z.string() })),
});
/** Where the Temporal Web UI's codec endpoint is: its key is derived from the admin token. */
const codecAnswer = answer({ webUiEndpoint: z.url() });

/**
 * A confirmed handshake secret: the robot as it is now, and for a sender whose person pastes the
 * secret back (Notion's verification token) that secret, shown this once.
 */
const confirmedSecretAnswer = answer({
  robot: robotAnswer,
  pasteBack: answer({ label: z.string(), value: z.string() }).nullable(),
});

/** Answers' schemas, by the name they have in the OpenAPI document. */
export const ANSWERS = {
  Error: errorAnswer,
  App: appAnswer,
  Connection: connectionAnswer,
  Robot: robotAnswer,
  ConfirmedSecret: confirmedSecretAnswer,
  Apps: appsAnswer,
  Connections: connectionsAnswer,
  Robots: robotsAnswer,
  RobotFields: robotFieldsAnswer,
  Payloads: payloadsAnswer,
  Codec: codecAnswer,
  ...HISTORY_ANSWERS,
  ...WORKSPACE_ANSWERS,
  ...NOTIFICATION_ANSWERS,
  ...ISSUE_ANSWERS,
} satisfies Record<string, z.ZodTypeAny>;

/** What the API answers, as the dashboard (web/src/api.ts) and other TypeScript clients read it. */
export type AppAnswer = z.output<typeof appAnswer>;
export type ConnectionAnswer = z.output<typeof connectionAnswer>;
export type RobotAnswer = z.output<typeof robotAnswer>;
export type RobotFieldsAnswer = z.output<typeof robotFieldsAnswer>;
export type { DeliveryAnswer, RunAnswer, RunSummaryAnswer } from './history-answers';
export type { AuditEntryAnswer, CallerAnswer, KeyAnswer, WorkspaceAnswer } from './workspace-answers';
export type { IssueAnswer } from './issue-schemas';
