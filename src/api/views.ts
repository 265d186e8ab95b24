/** What the management API returns for each stored document. */
import { AUTO_DEDUP } from '../domain/dedup';
import { currentVersion } from '../robots/steps-versions';
import type {
  BodyFormat,
  DeliveryOutcome,
  JsonValue,
  RequestCapture,
  StepDefinition,
  StepStatus,
} from '../domain/types';
import { emptyPlaceholdersHint, everyPlaceholderEmpty } from '../domain/empty-placeholders';
import { maskedToken } from '../domain/inspection';
import { DELIVERY_RUN_IDS } from '../domain/limits';
import type {
  AppDoc,
  ConnectionDoc,
  DeliveryDoc,
  RobotDoc,
  RunDoc,
  RunOutcomeDoc,
  StepResultDoc,
} from '../storage/documents';
import type { RobotHistory } from '../history/reads';
import type { RunSummary } from '../history/tally';
import { runIdFor, webhookUrl } from '../domain/ids';
import { appVerification } from '../apps/apps';
import { SENDERS, type CustomVerification } from '../domain/senders/catalog';
import { cardToken } from '../robots/trigger-tokens';
import { handshakeSecretView } from '../robots/handshake-secrets';
import type { AnswerIn } from '../contract/operation';

/** An app as the API shows it: its verification's settings without the secret. */
export function appView(app: AppDoc, secretsKeys: readonly Buffer[]): AnswerIn<'App'> {
  // Its workspace is the caller's: not part of the answer.
  const { _id, workspaceId: _workspace, verificationSealed: _sealed, sender: _sender, dedup, ...rest } = app;
  const unsealed = appVerification(secretsKeys, app);
  return { id: _id, ...rest, verification: unsealed && verificationView(unsealed), dedup: dedup ?? AUTO_DEDUP };
}

/** A verification without its secrets (the settings its sender marks secret). */
function verificationView(v: CustomVerification): NonNullable<AnswerIn<'App'>['verification']> {
  const sender = SENDERS[v.scheme];
  const secrets = new Set<string>(sender.settings.filter((s) => s.secret).map((s) => s.name));
  secrets.add('secret');
  const shown = Object.fromEntries(Object.entries(v).filter(([name]) => !secrets.has(name))) as Omit<
    CustomVerification,
    'secret' | 'verifyToken'
  >;
  if (!sender.secretFromHandshake) return shown;
  return { ...shown, secretFromHandshake: v.secret ? 'kept' : 'waiting' };
}

export function connectionView(c: ConnectionDoc): AnswerIn<'Connection'> {
  return {
    id: c._id,
    provider: c.provider,
    name: c.name,
    hasSigningSecret: c.signingSecretSealed !== null,
    events: c.events ?? [],
    createdAt: c.createdAt,
  };
}

/** Where an operator sees a workflow in the Temporal Web UI (TEMPORAL_UI_URL): a search for its ID. */
export interface WebUi {
  url: string | null;
  namespace: string;
}

export function workflowUrl(ui: WebUi, workflowId: string | null): string | null {
  if (!ui.url || !workflowId) return null;
  const query = encodeURIComponent(`WorkflowId="${workflowId}"`);
  return `${ui.url}/namespaces/${encodeURIComponent(ui.namespace)}/workflows?query=${query}`;
}

/**
 * What a robot's answer carries: its card or not (the list of robots leaves it out, so a page that
 * polls the list never carries every robot's URL), and the URL's credentials (the live URL, the
 * handshake secrets' addresses) or not: a viewer reads no credential (review R2).
 */
export interface RobotShown {
  card: boolean;
  credentials: boolean;
}

/** The card's URL with its token masked: enough to recognise it, not to send to it. */
function maskedUrl(baseUrl: string, identifier: string | null, token: string | null): string | null {
  return webhookUrl(baseUrl, identifier, token && maskedToken(token));
}

/** The trigger step's card (./answers.ts `card`), with the URL's credentials only where `credentials` says. */
function cardView(robot: RobotDoc, config: { baseUrl: string; secretsKeys: readonly Buffer[] }, credentials: boolean) {
  const { identifier, previousTokenExpiresAt, handshakeSecret, pendingHandshakeSecrets } = robot.trigger;
  const token = cardToken(config.secretsKeys, robot.trigger);
  const secrets = handshakeSecret || pendingHandshakeSecrets?.length;
  return {
    ...(credentials ? { webhookUrl: webhookUrl(config.baseUrl, identifier, token) } : {}),
    maskedUrl: maskedUrl(config.baseUrl, identifier, token),
    previousTokenExpiresAt:
      previousTokenExpiresAt && previousTokenExpiresAt > new Date() ? previousTokenExpiresAt : null,
    ...(credentials && secrets
      ? {
          handshakeSecrets: {
            confirmed: handshakeSecret ? handshakeSecretView(handshakeSecret) : null,
            pending: (pendingHandshakeSecrets ?? []).map(handshakeSecretView),
          },
        }
      : {}),
  };
}

/** A robot as the API shows it to a caller (see RobotShown). */
export function robotView(
  robot: RobotDoc,
  config: { baseUrl: string; secretsKeys: readonly Buffer[] },
  history: RobotHistory | undefined,
  { card, credentials }: RobotShown,
): AnswerIn<'Robot'> {
  const { kind, appId, connectionId, events, identifier } = robot.trigger;
  return {
    id: robot._id,
    name: robot.name,
    state: robot.state,
    trigger: {
      ...(kind === 'custom' ? { kind, appId: appId! } : { kind, connectionId: connectionId!, events: events ?? null }),
      identifier,
      ...(card ? { card: cardView(robot, config, credentials) } : {}),
    },
    steps: robot.steps.map((s) => ({ name: s.name, type: s.type, template: JSON.parse(s.templateJson) as JsonValue })),
    stepsVersion: robot.stepsVersion ?? 0,
    rules: currentVersion(robot).rules,
    createdAt: robot.createdAt,
    ...(history ?? {}),
  };
}

/** A step result with its output as JSON text. */
export type StepResultText = Omit<StepResultDoc, 'output'> & { outputJson?: string };

/**
 * A run with its trigger data and outputs as JSON text, its step results (any order) and its
 * outcome, if it has ended.
 */
interface RunParts {
  run: RunDoc;
  triggerJson: string;
  steps: StepDefinition[];
  results: StepResultText[];
  outcome: RunOutcomeDoc | undefined;
  /** Its delivery's body format (undefined when the delivery is gone). */
  format: BodyFormat | undefined;
}

/**
 * A run whole; `workflow` is its link in the Temporal Web UI, left out (undefined) for all but the
 * operator. `hint` when every placeholder of its steps came out empty (src/domain/empty-placeholders.ts).
 */
export function runView(
  { run, triggerJson, steps, results, outcome, format }: RunParts,
  workflow: string | null | undefined,
): AnswerIn<'Run'> {
  const byIndex = new Map(results.map((r) => [r.index, r]));
  const trigger = JSON.parse(triggerJson) as JsonValue;
  const templates = steps.map((s) => JSON.parse(s.templateJson) as JsonValue);
  const empty = format !== undefined && everyPlaceholderEmpty(templates, trigger);
  return {
    id: run._id,
    robotId: run.robotId,
    deliveryId: run.deliveryId,
    status: outcome?.status ?? 'running',
    trigger,
    steps: steps.map((definition, i) => {
      const result = byIndex.get(i);
      if (!result) return { name: definition.name, status: 'pending' as StepStatus };
      return result.status === 'succeeded'
        ? { name: result.name, status: result.status, output: JSON.parse(result.outputJson ?? 'null') as JsonValue }
        : { name: result.name, status: result.status, error: result.error ?? 'failed' };
    }),
    verified: run.verified,
    createdAt: run.createdAt,
    finishedAt: outcome?.finishedAt ?? null,
    ...(workflow === undefined ? {} : { workflowUrl: workflow }),
    ...(run.test ? { test: true as const } : {}),
    ...(empty ? { hint: emptyPlaceholdersHint(format) } : {}),
  };
}

/**
 * A run in the run history: what it is and how it ended. `trigger` is there when its JSON is at
 * most 1 KiB (`triggerTruncated: true` otherwise); steps and large data come with `GET /api/runs/:id`.
 */
export function runSummaryView(r: RunSummary, robotId: string): AnswerIn<'RunsPage'>['runs'][number] {
  return {
    id: r.id,
    robotId,
    deliveryId: r.deliveryId,
    status: r.status,
    ...(r.trigger === null ? { triggerTruncated: true as const } : { trigger: JSON.parse(r.trigger) as JsonValue }),
    createdAt: r.createdAt,
    finishedAt: r.finishedAt,
    ...(r.test ? { test: true as const } : {}),
  };
}

/** Outcomes whose record says why (the rest have runs, an error, or nothing to say). */
const WITH_REASON: ReadonlySet<DeliveryOutcome> = new Set(['rejected', 'dropped', 'filtered', 'duplicate']);

export function deliveryView(
  d: Pick<DeliveryDoc, Exclude<keyof DeliveryDoc, 'previewsJson' | 'slot' | 'stepCount'>>,
  /** The Temporal Web UI, for the operator only (null: no `workflowUrl`). */
  ui: WebUi | null,
): AnswerIn<'Delivery'> {
  return {
    id: d._id,
    robotId: d.robotId,
    receivedAt: d.receivedAt,
    format: d.format,
    contentType: d.contentType,
    size: d.size,
    outcome: d.outcome,
    ...(d.outcome === 'processed' ? { runCount: d.runCount } : {}),
    ...(WITH_REASON.has(d.outcome) ? { reason: d.reason } : {}),
    ...(d.filteredRows ? { filteredRows: d.filteredRows } : {}),
    ...(d.outcome === 'failed' ? { error: d.error } : {}),
    verified: d.verified,
    workflowId: d.workflowId,
    ...(ui ? { workflowUrl: workflowUrl(ui, d.workflowId) } : {}),
    ...(d.stepsVersion === undefined ? {} : { stepsVersion: d.stepsVersion }),
    // A handshake's body is kept to be inspected, and a refused one's first 64 KiB: neither replays whole.
    replayable: Boolean(d.body) && d.outcome !== 'handshake' && d.bodyKeptBytes === undefined,
    replayOf: d.replayOf ?? null,
    headers: JSON.parse(d.headersJson ?? '{}') as Record<string, string>,
    ...(d.test ? { test: true as const } : {}),
    ...(d.event === undefined ? {} : { event: d.event }),
    ...(d.duplicateOf === undefined ? {} : { duplicateOf: d.duplicateOf }),
    ...(d.answered === undefined ? {} : { answered: d.answered }),
    bodyKept: d.body ? (d.bodyKeptBytes ?? d.size) : 0,
    runIds: Array.from({ length: Math.min(d.runCount, DELIVERY_RUN_IDS) }, (_, i) => runIdFor(d._id, i)),
    ...(d.requestJson ? { request: JSON.parse(d.requestJson) as RequestCapture } : {}),
  };
}
