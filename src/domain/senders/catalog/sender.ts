/**
 * What a sender is, as data: what a person sees (its label, the settings its console names, where to
 * paste the URL) and how its requests are checked (its signature, its delivery id, its handshake),
 * spelled as parameters of a family whose code checks them (../families/). One file per sender in
 * this folder; ./index.ts gathers them. Pure data and types: the dashboard bundles this folder.
 */
import type { BodyFormat } from '../../types';

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

/** The `hmac` sender's algorithms and signature encodings. */
export const HMAC_ALGORITHMS = ['sha256', 'sha1', 'sha512'] as const;
export type HmacAlgorithm = (typeof HMAC_ALGORITHMS)[number];
export const SIGNATURE_ENCODINGS = ['hex', 'base64'] as const;

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

/** How a digest is written: hex (either case), padded base64, or unpadded base64url. */
export type DigestEncoding = 'hex' | 'base64' | 'base64url';

/**
 * How the secret the person pastes becomes the key: as its text (most senders), base64-decoded
 * (Airtable's macSecretBase64), hex-decoded (Onfleet), or base64 after an optional `whsec_`.
 */
export type KeyEncoding = 'text' | 'base64' | 'hex' | 'whsec';

/** A signed time: its text as sent, read from a header, from a part of the signature header, or from the body. */
export type SignedTime = { unit: 's' | 'ms' | 'iso' } & (
  | { header: string }
  | { part: string }
  /** A top-level field of the JSON body (Linear's `webhookTimestamp`): the whole body is signed. */
  | { json: string }
  /** The first of the header's positional values, the digests the rest (Recurly's `<ms>,<hex>,<hex>`). */
  | { first: true }
);

/**
 * An HMAC (`algorithm`, under each key the person gave) of `content`, compared with every digest
 * given. `content` joins the exact raw body with `{time}` (the signed time's text as sent), `{url}`
 * (the public URL the sender was given) and `{form}` (a form body's fields sorted by name, each its
 * name and its decoded value): `{body}`, `{url}{body}`, `v0:{time}:{body}`, `{url}{form}`.
 */
export interface HmacSignature {
  family: 'hmac';
  /**
   * The header(s) carrying the digests (any may match: keys being rotated, Box's primary and
   * secondary), or the query parameter (PandaDoc's `?signature=`).
   */
  header: string | readonly string[] | { setting: 'header' } | { query: string };
  /**
   * The digests are the named parts of the header (`t=…,v1=…`: `{ digest: 'v1', separator: ',' }`;
   * several sets of parts may follow one another, space-separated, while a secret is rolled), or
   * its positional values after the first (`{ positional: ',' }`); else the header's whole value is
   * one digest.
   */
  parts?: { digest: string; separator: ',' | ';' } | { positional: ',' };
  prefix?: string | { setting: 'prefix' };
  algorithm?: HmacAlgorithm | { setting: 'algorithm' };
  encoding: DigestEncoding | { setting: 'encoding' };
  content: string;
  time?: SignedTime;
  /** How the secret is the key; `text` when left out. */
  key?: KeyEncoding;
}

/** A signature by the sender's private key, checked with the public key the person pastes. */
export interface PublicKeySignature {
  family: 'public-key';
  /** ECDSA P-256 (a base64 SPKI key, a DER signature) or Ed25519 (hex or base64 raw key). */
  algorithm: 'ecdsa-p256' | 'ed25519';
  header: string;
  /** How the signature and the key are written. */
  encoding: 'hex' | 'base64';
  time: { header: string; unit: 's' };
  /** `{time}{body}` (Discord, SendGrid) or `{time}|{body}` (Telnyx). */
  content: string;
}

/**
 * A JSON Web Token (HS256, under the secret) in a header: its `exp` must not have passed; `audience`:
 * its `aud` is the public URL (monday.com); `issuer`: its `iss`; `bodyDigest`: a claim holding the hex
 * SHA-256 of the exact raw body (Netlify), without which the token does not cover the body.
 */
export interface JwtSignature {
  family: 'jwt';
  header: string;
  audience?: 'url';
  issuer?: string;
  bodyDigest?: string;
}

/** A credential sent as it is: a header equal to the secret, or HTTP Basic credentials. */
export type StaticCredential =
  { family: 'static'; header: string | { setting: 'header'; default?: string } } | { family: 'basic' };

/** Senders whose check no other sender shares: each has its own file in ../families/. */
export const FAMILIES_OF_ONE = [
  'twilio',
  'standard-webhooks',
  'mailgun',
  'microsoft-graph',
  'hubspot',
  'twitch',
  'adyen',
] as const;
export type Signature =
  | HmacSignature
  | PublicKeySignature
  | JwtSignature
  | StaticCredential
  /** Standard Webhooks; `key: 'text'`: the secret is the key as it is (Polar's), not base64 after `whsec_`. */
  | { family: 'standard-webhooks'; key?: 'text' }
  | { family: Exclude<(typeof FAMILIES_OF_ONE)[number], 'standard-webhooks'> };

/**
 * The kinds of check a sender makes of the URL (../handshakes.ts answers each; the families of one
 * that answer their own, Microsoft Graph and Twitch, name `own`). `request` and `answer` say it in
 * words, for the docs and the form.
 */
export type HandshakeKind =
  /** A GET whose query parameter is echoed as text; with `verifyToken`, only when that one equals the token. */
  | { kind: 'echo-query'; param: string; verifyToken?: { param: string; mode: { param: string; value: string } } }
  /**
   * A JSON body whose `when.field` is `when.value` (or, without `when`, whose only field is `field`),
   * answered with `field` as text, or with the same JSON (`echo: 'json'`: monday.com).
   */
  | {
      kind: 'echo-json';
      field: string;
      when?: { field: string; value: string };
      echo: 'text' | 'json';
      signed: boolean;
    }
  /** A HEAD the sender checks the URL with, answered 200 (Trello, Mandrill). */
  | { kind: 'head' }
  /**
   * An unsigned form body of one field whose value matches `value` (a regular expression's source):
   * a ping answered 200 with no run (WooCommerce's `webhook_id=<n>`, Mandrill's `mandrill_events=[]`).
   */
  | { kind: 'form-ping'; field: string; value: string }
  /**
   * A GET whose `param` is answered as JSON `{ [answerField]: prefix + base64 HMAC-SHA256 of it }`
   * under the secret (X's CRC: `crc_token` → `response_token: "sha256=…"`).
   */
  | { kind: 'crc'; param: string; answerField: string; prefix: string }
  /** Okta: a GET whose challenge header is answered as JSON, when the credential is sent too. */
  | { kind: 'okta' }
  /** A secret the sender gives in a header (Asana) or a body of that one field (Notion), kept pending. */
  | { kind: 'learn-secret'; from: { header: string } | { json: string } }
  /**
   * A JSON body whose `when.field` is `when.value`, answered as JSON with the token at the dotted path
   * `token` (as `echoAs`, if named) and its hex HMAC-SHA256 under the secret (as `digestAs`): Zoom's
   * `endpoint.url_validation` (`plainToken`, `encryptedToken`), Smartcar's `VERIFY` (`challenge`).
   */
  | {
      kind: 'json-crc';
      when: { field: string; value: string };
      token: string;
      echoAs?: string;
      digestAs: string;
      signed: boolean;
    }
  /** Discord's signed PINGs. */
  | { kind: 'discord' }
  /** The family of one answers its own (Microsoft Graph's validation, Twitch's challenge). */
  | { kind: 'own' }
  /** A first event that needs no answer of its own: it runs as a delivery (GitHub's `ping`). */
  | { kind: 'runs' };

export type SenderHandshake = HandshakeKind & {
  /** GET handshakes are the only GETs a webhook URL answers (for an app of that sender). */
  method: 'GET' | 'HEAD' | 'POST';
  /** The request, as the sender's docs describe it. */
  request: string;
  /** What the receiver answers. */
  answer: string;
};

/** The statuses a sender may require for a refusal. */
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

/** The tolerance most senders that sign a time allow. */
export const FIVE_MINUTES = 300;
/** A sample body as JSON. */
export const json = (value: unknown) => ({ contentType: 'application/json', body: JSON.stringify(value) });
/** A sample body as a urlencoded form. */
export const form = (fields: Record<string, string>) => ({
  contentType: 'application/x-www-form-urlencoded',
  body: new URLSearchParams(fields).toString(),
});
