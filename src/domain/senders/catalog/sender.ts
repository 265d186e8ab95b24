/**
 * What a sender is, as data: what a person sees (its label, the settings its console names, where to
 * paste the URL) and how its requests are checked (its signature, its delivery id, its handshake),
 * spelled as parameters of a family whose code checks them (../families/). One file per sender in
 * this folder; ./index.ts gathers them. Pure data and types: the dashboard bundles this folder.
 */
import type { BodyFormat } from '../../types';
import type { HmacAlgorithm, SenderHandshake, Signature, SIGNATURE_ENCODINGS } from './check';

export * from './check';

/** The settings a sender may take; which ones each takes is its file's `settings`. */
export const SETTING_NAMES = [
  'secret',
  'secondarySecret',
  'verifyToken',
  'publicKey',
  'header',
  'username',
  'algorithm',
  'encoding',
  'prefix',
] as const;
export type SettingName = (typeof SETTING_NAMES)[number];

/** The settings a check reads (a custom app's verification is these and its scheme: ./index.ts). */
export interface SenderSettings {
  /** The scheme it was saved with, where the settings are a whole verification (read by no check). */
  scheme?: string;
  secret?: string;
  /** A second key the sender signs with too (Box's secondary key, a key being rotated). */
  secondarySecret?: string;
  verifyToken?: string;
  publicKey?: string;
  header?: string;
  username?: string;
  algorithm?: HmacAlgorithm;
  encoding?: (typeof SIGNATURE_ENCODINGS)[number];
  prefix?: string;
}

/** One setting a person fills in, as the sender's console names it. */
export interface SenderSetting {
  name: SettingName;
  /** What the sender's console calls it. */
  label: string;
  /** A secret is write-only: the API never returns it. Every setting is stored sealed with it. */
  secret: boolean;
  /** The sender's own format decides the shortest (MIN_SIGNING_SECRET_LENGTH for one the person chooses). */
  minLength?: number;
  /** The value's shape, as a regular expression's source, and what to say when it does not match. */
  pattern?: { source: string; message: string };
  /**
   * An Ed25519 public key, in this encoding: small-order and non-canonical keys are refused when
   * saved (../ed25519-keys.ts).
   */
  ed25519PublicKey?: 'hex' | 'base64';
  /** A fixed list of values. */
  choices?: readonly string[];
  /** Taken when left out. */
  default?: string;
  optional?: boolean;
}

export type RefusalStatus = 400 | 401 | 498;

/** The groups the dashboard's sender picker shows senders in. */
export const SENDER_GROUPS = [
  'payments',
  'commerce',
  'dev-tools',
  'messaging',
  'crm',
  'forms',
  'marketing',
  'email',
  'identity',
  'productivity',
  'ai',
  'generic',
] as const;
export type SenderGroup = (typeof SENDER_GROUPS)[number];

export interface Sender {
  /** The sender's name as people know it. */
  label: string;
  /** Where the dashboard's sender picker shows it. */
  group: SenderGroup;
  /** Examples of who sends this way (for a generic scheme). */
  examples?: string;
  /** What the person fills in. */
  settings: readonly SenderSetting[];
  /** Two or three lines: where to paste the URL, where each setting is found. */
  setup: string;
  /** How its requests are checked: a family's parameters. */
  signature: Signature;
  /** What the receiver checks, over the exact raw bytes, in words (docs/api.md). */
  checks: string;
  /**
   * Its own id of a delivery, the same on every retry, when one can be trusted: a field of the signed
   * JSON body (dotted path), or headers where the credential is static; null: the body's digest.
   * A family of one gives its own (`own`).
   */
  deliveryId: { json: string } | { headers: readonly string[] } | 'own' | null;
  /** What its deliveries are told apart by, in words (src/domain/dedup.ts). */
  dedup: string;
  /** How it sends a delivery again (when, how long, whether the same id), in words, where its docs say. */
  redelivery?: string;
  /** Headers kept with each delivery beyond those its check reads (GitHub's X-GitHub-Event). */
  keeps?: readonly string[];
  handshake: SenderHandshake | null;
  /**
   * A signed delivery whose field `json` names is an empty array carries nothing (Asana's heartbeat,
   * Xero's intent to receive): answered 200 and recorded as a handshake, with no run.
   */
  heartbeat?: { json: string };
  /**
   * How far its signed time may be from the moment the request arrived, in seconds, as its docs
   * say (5 minutes where they say nothing); null when it signs no time, so a capture verifies for ever.
   */
  toleranceSeconds: number | null;
  /**
   * For a sender whose notifications carry neither an id nor a signed time and may be legitimately
   * identical (Dropbox, Microsoft Graph): how long the same body is one delivery.
   */
  bodyWindowSeconds?: number;
  /** The body format its deliveries are in. */
  bodyFormat: BodyFormat;
  /**
   * It posts JSON, or the same as a form (`payload=<JSON>`) or form fields, as the person set it
   * up (GitHub's content type, Slack's interactivity and slash commands): a json app of it reads
   * both, told apart by the body itself (src/domain/form-bodies.ts, `jsonOrForm`).
   */
  formEnvelope?: true;
  /**
   * It gives its secret in its handshake (Asana, Notion): nothing to fill in; the secret is kept
   * sealed and pending on the robot's URL when it comes, until an editor confirms it on the card
   * (src/robots/handshake-secrets.ts). `pasteBack`: the person must paste it back into the sender,
   * so the confirmation shows it once under this label.
   */
  secretFromHandshake?: { pasteBack?: string };
  /** What a refused request is answered (400 unless the sender requires another: Xero 401, GoCardless 498). */
  refusalStatus: RefusalStatus;
  /** What a delivery taken is answered: 200 unless the sender requires another (Discord's events: 204). */
  acknowledgeStatus?: 204;
  /**
   * It signs less than the body (Mailgun: its signature's timestamp and token): a key read from the
   * body (`body`, `jsonPath`) would let a capture with another body run again; only `auto` (its
   * signed id) is taken.
   */
  signsPartOfBody?: true;
  /** A sample delivery of its, for test deliveries and the card's example. */
  sample: { contentType: string; body: string };
}

/** A signing secret the person chooses or copies: at least 16 characters (MIN_SIGNING_SECRET_LENGTH). */
export const secret = (label: string, extra: Partial<SenderSetting> = {}): SenderSetting => ({
  name: 'secret',
  label,
  secret: true,
  ...extra,
});

/** A Standard Webhooks signing secret, as the sender's console labels it: `whsec_` and base64. */
export const whsecSecret = (label: string): SenderSetting =>
  secret(label, {
    pattern: { source: '^whsec_[A-Za-z0-9+/=]+$', message: 'a signing secret: whsec_ followed by base64' },
  });

/** What a sender whose webhooks Svix sends checks and keys on: the standard-webhooks family, `svix-*` names. */
export const SENT_BY_SVIX = {
  signature: { family: 'standard-webhooks' },
  checks:
    'Svix: `svix-signature` over `id.timestamp.body`, HMAC-SHA256 with the `standardwebhooks` package, ' +
    'the timestamp within 5 minutes',
  deliveryId: 'own',
  dedup: '`svix-id` (signed)',
} as const satisfies Pick<Sender, 'signature' | 'checks' | 'deliveryId' | 'dedup'>;

/** The tolerance most senders that sign a time allow. */
export const FIVE_MINUTES = 300;
/** A sample body as JSON. */
export const json = (value: unknown) => ({ contentType: 'application/json', body: JSON.stringify(value) });
/** A sample body as a urlencoded form. */
export const form = (fields: Record<string, string>) => ({
  contentType: 'application/x-www-form-urlencoded',
  body: new URLSearchParams(fields).toString(),
});
