/**
 * How a sender's requests are checked, as data: the parameters of each family (../families/) and
 * the kinds of handshake (../handshakes.ts) a sender's file names. Pure types and constants.
 */

/** The `hmac` sender's algorithms and signature encodings. */
export const HMAC_ALGORITHMS = ['sha256', 'sha1', 'sha512'] as const;
export type HmacAlgorithm = (typeof HMAC_ALGORITHMS)[number];
export const SIGNATURE_ENCODINGS = ['hex', 'base64'] as const;

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
