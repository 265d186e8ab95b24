/**
 * A custom app's verification as the management API takes it (docs/api.md, Senders): its sender's
 * scheme and exactly the settings its catalog entry names, each checked as the sender's own format
 * requires, and a signing secret's rule. Gathered by ./requests.ts.
 */
import { z } from 'zod';
import { isStandardWebhooksSecret, STANDARD_WEBHOOKS_PUBLIC_KEY } from '../domain/senders/families/standard-webhooks';
import { ed25519PublicKeyProblem } from '../domain/senders/ed25519-keys';
import {
  SENDER_NAMES,
  SENDERS,
  type CustomVerification,
  type SenderName,
  type SenderSetting,
} from '../domain/senders/catalog';
import { MIN_SIGNING_SECRET_LENGTH } from '../domain/limits';
import { isHeaderName } from '../domain/headers';

/** A header name someone chooses (src/domain/headers.ts): a token, and not __proto__, constructor or prototype. */
export const headerName = z.string().refine(isHeaderName, 'a header name (not __proto__, constructor or prototype)');

/** A signing secret: long enough that nobody finds it from one captured request (MIN_SIGNING_SECRET_LENGTH). */
export const secret = z
  .string()
  .min(MIN_SIGNING_SECRET_LENGTH, `must be at least ${MIN_SIGNING_SECRET_LENGTH} characters`)
  .max(500);

/**
 * One setting of a sender (src/domain/senders/catalog.ts): a secret at least MIN_SIGNING_SECRET_LENGTH
 * characters unless the sender's own format decides (Dropbox's 15-character app secret), a header
 * name as a header name, a choice among its values, an Ed25519 public key one of a sender's own.
 */
function settingSchema(s: SenderSetting): z.ZodTypeAny {
  let schema: z.ZodTypeAny;
  if (s.choices) schema = z.enum(s.choices as [string, ...string[]]);
  else if (s.name === 'header') schema = headerName;
  else {
    const min = s.minLength ?? (s.secret ? MIN_SIGNING_SECRET_LENGTH : s.optional ? 0 : 1);
    let text = z.string().min(min, `must be at least ${min} characters`).max(500);
    if (s.pattern) text = text.regex(new RegExp(s.pattern.source), s.pattern.message);
    const encoding = s.ed25519PublicKey;
    schema = encoding ? text.superRefine((key, ctx) => refuseWeakEd25519Key(key, encoding, ctx)) : text;
  }
  if (s.default !== undefined) return schema.default(s.default);
  return s.optional ? schema.optional() : schema;
}

/** A public key with which nobody but its holder signs: small-order and non-canonical ones are refused. */
function refuseWeakEd25519Key(key: string, encoding: 'hex' | 'base64', ctx: z.RefinementCtx): void {
  const problem = ed25519PublicKeyProblem(key, encoding);
  if (problem) ctx.addIssue({ code: 'custom', message: problem });
}

/**
 * A sender's verification: its scheme and exactly the settings its catalog entry names; in an edit
 * (`keptSecrets`) its secret settings may be left out, to keep the app's own (src/apps/apps.ts).
 */
const senderBody = (name: SenderName, keptSecrets = false) =>
  z
    .object({
      scheme: z.literal(name),
      ...Object.fromEntries(
        SENDERS[name].settings.map((s) => [
          s.name,
          keptSecrets && s.secret ? settingSchema(s).optional() : settingSchema(s),
        ]),
      ),
    })
    .strict();

/**
 * How the app's senders sign their requests (checked before any run), by the sender's name; the
 * secret is write-only. A standard-webhooks secret must be one the package can read.
 */
const verificationOf = (keptSecrets: boolean) =>
  z
    .discriminatedUnion(
      'scheme',
      SENDER_NAMES.map((n) => senderBody(n, keptSecrets)) as unknown as [
        ReturnType<typeof senderBody>,
        ...ReturnType<typeof senderBody>[],
      ],
    )
    .superRefine(refuseUnreadableSecret);

/** A standard-webhooks secret must be one the package can read (a kept one was checked when it was saved). */
function refuseUnreadableSecret(v: { scheme: SenderName }, ctx: z.RefinementCtx): void {
  const signature = SENDERS[v.scheme].signature;
  const base64Key = signature.family === 'standard-webhooks' && signature.key !== 'text';
  const secret = (v as { secret?: string }).secret;
  if (secret === undefined) return;
  if (base64Key && !isStandardWebhooksSecret(secret))
    ctx.addIssue({
      code: 'custom',
      path: ['secret'],
      message: 'a standard-webhooks secret: whsec_ (or whpk_) followed by base64',
    });
  else if (base64Key && secret.startsWith(STANDARD_WEBHOOKS_PUBLIC_KEY)) {
    const problem = ed25519PublicKeyProblem(secret.slice(STANDARD_WEBHOOKS_PUBLIC_KEY.length), 'base64');
    if (problem) ctx.addIssue({ code: 'custom', path: ['secret'], message: problem });
  }
}

export const verificationBody = verificationOf(false) as unknown as z.ZodType<CustomVerification, unknown>;

/** A verification edited: a secret setting left out keeps the app's own, when the sender stays the same. */
export const verificationEditBody = verificationOf(true) as unknown as z.ZodType<CustomVerification, unknown>;
