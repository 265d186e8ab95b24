/**
 * The shape of a sender catalog entry (./catalog.ts): the senders' names, the settings a person
 * fills in, a custom app's verification, and the parts the entries are written with
 * (./signed-senders.ts, ./handshake-senders.ts). Pure data and types: the dashboard bundles it.
 */
import type { BodyFormat } from '../types';

/** Every sender by its scheme name, in the order the dashboard offers them. */
export const SENDER_NAMES = [
  'standard-webhooks',
  'github',
  'shopify',
  'slack',
  'twilio',
  'meta',
  'zoom',
  'microsoft-graph',
  'twitch',
  'dropbox',
  'okta',
  'asana',
  'notion',
  'discord',
  'sendgrid',
  'calendly',
  'paddle',
  'hubspot',
  'square',
  'gitlab',
  'mailgun',
  'header-token',
  'basic',
  'hmac',
] as const;
export type SenderName = (typeof SENDER_NAMES)[number];

/** The settings a sender may take; which ones each takes is its entry's `settings`. */
export const SETTING_NAMES = [
  'secret',
  'verifyToken',
  'publicKey',
  'header',
  'username',
  'algorithm',
  'encoding',
  'prefix',
] as const;
export type SettingName = (typeof SETTING_NAMES)[number];

/**
 * A custom app's verification as stored (sealed, whole) and as the checks read it: the scheme and
 * the settings its entry names. `secret` is absent only for a sender that gives it in its handshake
 * (Asana, Notion) before that handshake came.
 */
export interface CustomVerification {
  scheme: SenderName;
  secret?: string;
  verifyToken?: string;
  publicKey?: string;
  header?: string;
  username?: string;
  algorithm?: (typeof HMAC_ALGORITHMS)[number];
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
  /** An Ed25519 public key (hex): small-order and non-canonical keys are refused when saved (./ed25519-keys.ts). */
  ed25519PublicKey?: true;
  /** A fixed list of values. */
  choices?: readonly string[];
  /** Taken when left out. */
  default?: string;
  optional?: boolean;
}

/** How the sender checks the URL before it sends events, if it does. */
export interface SenderHandshake {
  /** GET handshakes are the only GETs a webhook URL answers (for an app of that sender). */
  method: 'GET' | 'POST';
  /** The request, as the sender's docs describe it. */
  request: string;
  /** What the receiver answers. */
  answer: string;
}

export interface SenderDescription {
  /** The sender's name as people know it. */
  label: string;
  /** Examples of who sends this way (for a generic scheme). */
  examples?: string;
  /** What the person fills in. */
  settings: readonly SenderSetting[];
  /** Two or three lines: where to paste the URL, where each setting is found. */
  setup: string;
  /** What the receiver checks, over the exact raw bytes. */
  checks: string;
  /** What its deliveries are told apart by (src/domain/dedup.ts). */
  dedup: string;
  handshake: SenderHandshake | null;
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
  /** What a refused request is answered (400 unless the sender requires another). */
  refusalStatus: 400 | 401;
  /**
   * It signs less than the body (Mailgun: its signature's timestamp and token): a key read from the
   * body (`body`, `jsonPath`) would let a capture with another body run again; only `auto` (its
   * signed id) is taken.
   */
  signsPartOfBody?: true;
  /** A sample delivery of its, for test deliveries and the card's example. */
  sample: { contentType: string; body: string };
}

/** The `hmac` sender's algorithms and signature encodings. */
export const HMAC_ALGORITHMS = ['sha256', 'sha1', 'sha512'] as const;
export const SIGNATURE_ENCODINGS = ['hex', 'base64'] as const;

/** A signing secret the person chooses or copies: at least 16 characters (MIN_SIGNING_SECRET_LENGTH). */
export const secret = (label: string, extra: Partial<SenderSetting> = {}): SenderSetting => ({
  name: 'secret',
  label,
  secret: true,
  ...extra,
});

/** The tolerance most senders that sign a time allow. */
export const FIVE_MINUTES = 300;
/** A sample body as JSON. */
export const json = (value: unknown) => ({ contentType: 'application/json', body: JSON.stringify(value) });
/** A sample body as a urlencoded form. */
export const form = (fields: Record<string, string>) => ({
  contentType: 'application/x-www-form-urlencoded',
  body: new URLSearchParams(fields).toString(),
});
