/**
 * Custom apps (body format, optional signature verification, what their deliveries are told apart
 * by) and payment provider connections: their writes, and the one place their secrets are sealed
 * (with SECRETS_KEY, as they arrive) and unsealed (with any of SECRETS_KEYS: for the receiver's
 * checks, and for the API's views, which never show the secret).
 */
import type { z } from 'zod';
import { dedupProblem, type DedupChoice } from '../domain/dedup';
import { decryptSecret, encryptSecret, newId } from '../domain/secrets';
import type { BodyFormat } from '../domain/types';
import { SENDERS, type CustomVerification } from '../domain/senders/catalog';
import { invalidField, workspaceFull } from '../core/http-errors';
import {
  verificationBody,
  type createAppBody,
  type createConnectionBody,
  type updateAppBody,
  type updateConnectionBody,
} from '../contract/requests';
import type { AppDoc, ConnectionDoc } from '../storage/documents';
import type { Models } from '../storage/models';

/** What the apps' writes need: the models, and the key new secrets are sealed with. */
export interface AppsDeps {
  models: Models;
  secretsKey: Buffer;
  /** Every key a stored secret may be sealed with (SECRETS_KEYS). */
  secretsKeys: readonly Buffer[];
}

/** The app's verification settings with its secret, unsealed; null for an app whose senders do not sign. */
export function appVerification(
  secretsKeys: readonly Buffer[],
  app: Pick<AppDoc, 'verificationSealed'>,
): CustomVerification | null {
  if (!app.verificationSealed) return null;
  return JSON.parse(decryptSecret(secretsKeys, app.verificationSealed)) as CustomVerification;
}

/** The connection's signing secret, unsealed; null when it has none. */
export function connectionSecret(secretsKeys: readonly Buffer[], connection: ConnectionDoc): string | null {
  return connection.signingSecretSealed ? decryptSecret(secretsKeys, connection.signingSecretSealed) : null;
}

/** The stored form of an app's verification: the whole settings with the secret, sealed; its sender's name in clear. */
const sealed = (key: Buffer, v: CustomVerification | null): Pick<AppDoc, 'verificationSealed' | 'sender'> => ({
  verificationSealed: v ? encryptSecret(key, JSON.stringify(v)) : null,
  sender: v?.scheme ?? null,
});

/** Refuses a dedup choice that does not suit the app as it will be (src/domain/dedup.ts, `dedupProblem`). */
function checkDedup(dedup: DedupChoice | null | undefined, app: { signedWith: string | null; bodyFormat: BodyFormat }) {
  const problem = dedup ? dedupProblem(dedup, app) : null;
  if (problem) throw invalidField(problem.field, problem.problem);
}

/** A new app; refused 409 when its workspace holds `maxApps` already (MAX_APPS_PER_WORKSPACE). */
export async function createApp(
  { models, secretsKey }: AppsDeps,
  workspaceId: string,
  { verification, ...body }: z.output<typeof createAppBody>,
  maxApps: number,
): Promise<AppDoc> {
  const apps = await models.App.countDocuments({ workspaceId });
  if (apps >= maxApps) throw workspaceFull('MAX_APPS_PER_WORKSPACE', apps, 'apps');
  checkDedup(body.dedup, { signedWith: verification?.scheme ?? null, bodyFormat: body.bodyFormat });
  const app = await models.App.create({
    _id: newId(),
    workspaceId,
    ...body,
    ...sealed(secretsKey, verification ?? null),
    createdAt: new Date(),
  });
  return app.toObject();
}

/**
 * A verification edited, whole: a secret setting left out is the app's own, when its sender stays
 * the same (refused, naming the setting, when the sender changes or the app has none).
 */
function withKeptSecrets(secretsKeys: readonly Buffer[], app: AppDoc, edit: CustomVerification): CustomVerification {
  const kept = appVerification(secretsKeys, app);
  const whole: Record<string, unknown> = { ...edit };
  for (const s of SENDERS[edit.scheme].settings) {
    if (!s.secret || whole[s.name] !== undefined) continue;
    const own = kept?.scheme === edit.scheme ? (kept as unknown as Record<string, unknown>)[s.name] : undefined;
    if (own !== undefined) whole[s.name] = own;
    else if (!s.optional) throw invalidField(`verification.${s.name}`, 'required: the app has no such secret to keep');
  }
  return verificationBody.parse(whole);
}

/** The app edited, or null if it is gone; its dedup choice checked against the app as it will be. */
export async function editApp(
  { models, secretsKey, secretsKeys }: AppsDeps,
  app: AppDoc,
  { verification: edited, ...body }: z.output<typeof updateAppBody>,
): Promise<AppDoc | null> {
  const verification = edited ? withKeptSecrets(secretsKeys, app, edited) : edited;
  checkDedup(body.dedup === undefined ? app.dedup : body.dedup, {
    signedWith:
      verification === undefined ? (appVerification(secretsKeys, app)?.scheme ?? null) : (verification?.scheme ?? null),
    bodyFormat: body.bodyFormat ?? app.bodyFormat,
  });
  const changes = { ...body, ...(verification === undefined ? {} : sealed(secretsKey, verification)) };
  return models.App.findByIdAndUpdate(app._id, { $set: changes }, { returnDocument: 'after' }).lean();
}

export async function createConnection(
  { models, secretsKey }: AppsDeps,
  workspaceId: string,
  { signingSecret, ...body }: z.output<typeof createConnectionBody>,
): Promise<ConnectionDoc> {
  const connection = await models.Connection.create({
    _id: newId(),
    workspaceId,
    ...body,
    signingSecretSealed: signingSecret ? encryptSecret(secretsKey, signingSecret) : null,
    createdAt: new Date(),
  });
  return connection.toObject();
}

/** The connection edited, or null if it is gone: a secret given is sealed, `null` removes it. */
export async function editConnection(
  { models, secretsKey }: AppsDeps,
  connection: ConnectionDoc,
  { signingSecret, ...body }: z.output<typeof updateConnectionBody>,
): Promise<ConnectionDoc | null> {
  const sealed =
    signingSecret === undefined
      ? {}
      : { signingSecretSealed: signingSecret && encryptSecret(secretsKey, signingSecret) };
  return models.Connection.findByIdAndUpdate(
    connection._id,
    { $set: { ...body, ...sealed } },
    { returnDocument: 'after' },
  ).lean();
}

/**
 * Names the sender, in clear, of every app saved before 0.8 with a verification (`AppDoc.sender`),
 * so that its json bodies are read as its sender posts them (GitHub's and Slack's forms). Run at a
 * receiver's start; idempotent; apps are few: one read of them all. Returns how many it named.
 */
export async function nameAppSenders({
  models,
  secretsKeys,
}: Pick<AppsDeps, 'models' | 'secretsKeys'>): Promise<number> {
  const unnamed = (await models.App.find().lean()).filter((a) => a.verificationSealed && a.sender === undefined);
  for (const app of unnamed)
    await models.App.updateOne({ _id: app._id }, { $set: { sender: appVerification(secretsKeys, app)!.scheme } });
  return unnamed.length;
}

/**
 * The workspace's apps, newest first. Apps are few (tens a workspace, set up by people): one read
 * of the collection (on FerretDB, a filter other than `_id` reads it all, src/storage/by-id.ts).
 */
export async function workspaceApps({ models }: Pick<AppsDeps, 'models'>, workspaceId: string): Promise<AppDoc[]> {
  const apps = await models.App.find({ workspaceId }).lean();
  return apps.sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime());
}

/** The workspace's connections, newest first (as its apps). */
export async function workspaceConnections(
  { models }: Pick<AppsDeps, 'models'>,
  workspaceId: string,
): Promise<ConnectionDoc[]> {
  const connections = await models.Connection.find({ workspaceId }).lean();
  return connections.sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime());
}
