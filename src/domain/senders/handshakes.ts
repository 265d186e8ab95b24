/**
 * Every kind of check a sender makes of the URL before (or while) it sends events, answered the way
 * the sender expects, and never run (../catalog/sender.ts, `HandshakeKind`, names them; a sender's
 * file says which it makes). A kind is signed or not: a signed one is looked at only once the
 * sender's check passed, an unsigned one before, and a secret an unsigned one gives is only
 * offered, kept pending until an editor confirms it. Microsoft Graph's and Twitch's are their
 * families' own.
 */
import { headerValue } from '../headers';
import type { Sender } from './catalog';
import { HANDSHAKE_FORM_MAX_BYTES } from '../limits';
import {
  echoable,
  hmac,
  jsonObject,
  sameText,
  setting,
  unsignedJsonObject,
  valueAt,
  type HandshakeOf,
  type SenderCheck,
} from './parts';

type Handshaking = NonNullable<SenderCheck['handshake']>;

/** A sender's handshakes: the one looked at before its check (unsigned), and the one after (signed). */
export interface Handshakes {
  unsigned?: HandshakeOf;
  signed?: HandshakeOf;
}

/** Visible ASCII only: a secret echoed in a header of the answer (Asana's are 64 hex). */
const HEADER_TOKEN = /^[\x21-\x7e]+$/;

const text = (body: string) => ({ answer: { status: 200 as const, contentType: 'text/plain' as const, body } });
const asJson = (value: unknown) => ({
  answer: { status: 200 as const, contentType: 'application/json' as const, body: JSON.stringify(value) },
});

/** Its handshakes as its check answers them: the kind its file names, and a heartbeat it sends signed. */
export function handshakesOf(sender: Sender, check: SenderCheck): Handshakes {
  const kind = kindOf(sender, check);
  const handshakes: Handshakes = kind ? { [kind.signed ? 'signed' : 'unsigned']: kind.of } : {};
  const heartbeat = sender.heartbeat;
  if (heartbeat) {
    const empty: HandshakeOf = (_v, { body }) => {
      const events = jsonObject(body)?.[heartbeat.json];
      return Array.isArray(events) && events.length === 0 ? { answer: { status: 200 } } : null;
    };
    const own = handshakes.signed;
    handshakes.signed = own ? (v, req) => own(v, req) ?? empty(v, req) : empty;
  }
  return handshakes;
}

/** The handshake of the kind the sender's file names, or undefined when it makes none. */
function kindOf(sender: Sender, check: SenderCheck): Handshaking | undefined {
  const handshake = sender.handshake;
  if (!handshake) return undefined;
  switch (handshake.kind) {
    case 'echo-query': {
      const { param, verifyToken } = handshake;
      return {
        signed: false,
        of(v, { method, query }) {
          const challenge = echoable(query.get(param));
          if (method !== 'GET' || !challenge) return null;
          if (!verifyToken) return text(challenge);
          if (query.get(verifyToken.mode.param) !== verifyToken.mode.value) return null;
          const token = query.get(verifyToken.param);
          if (!token) return { refused: `missing ${verifyToken.param}`, status: 403 };
          if (!sameText(token, setting(v, 'verifyToken'))) {
            return { refused: `${verifyToken.param} does not match`, status: 403 };
          }
          return text(challenge);
        },
      };
    }
    case 'echo-json': {
      const { field, when, echo, signed } = handshake;
      return {
        signed,
        of(_v, { body }) {
          const message = signed ? jsonObject(body) : unsignedJsonObject(body);
          const challenge = echoable(message?.[field]);
          if (!message || !challenge) return null;
          if (when ? message[when.field] !== when.value : Object.keys(message).length !== 1) return null;
          return echo === 'text' ? text(challenge) : asJson({ [field]: challenge });
        },
      };
    }
    case 'head':
      return { signed: false, of: (_v, { method }) => (method === 'HEAD' ? { answer: { status: 200 } } : null) };
    case 'form-ping': {
      const { field } = handshake;
      const value = new RegExp(handshake.value);
      return {
        signed: false,
        of(_v, { method, body }) {
          // A ping is a few bytes: a longer body is a delivery, checked as one.
          if (method !== 'POST' || body.length > HANDSHAKE_FORM_MAX_BYTES) return null;
          const fields = [...new URLSearchParams(body.toString('latin1')).entries()];
          const only = fields.length === 1 && fields[0][0] === field && value.test(fields[0][1]);
          return only ? { answer: { status: 200 } } : null;
        },
      };
    }
    case 'crc': {
      const { param, answerField, prefix } = handshake;
      return {
        signed: false,
        of(v, { method, query }) {
          const token = echoable(query.get(param));
          if (method !== 'GET' || !token) return null;
          const digest = hmac('sha256', setting(v, 'secret'), token).toString('base64');
          return asJson({ [answerField]: prefix + digest });
        },
      };
    }
    case 'okta':
      // The one-time GET with X-Okta-Verification-Challenge, answered when it carries the credential.
      return {
        signed: false,
        of(v, req) {
          if (req.method !== 'GET') return null;
          const challenge = echoable(headerValue(req.headers, 'x-okta-verification-challenge'));
          if (!challenge) return null;
          const verdict = check.verify(v, req);
          return verdict.ok ? asJson({ verification: challenge }) : { refused: verdict.reason, status: 400 };
        },
      };
    case 'learn-secret': {
      const from = handshake.from;
      return {
        signed: false,
        of(v, { method, headers, body }) {
          let given: string | undefined;
          let answer: { status: 200; headers?: Record<string, string> } = { status: 200 };
          if ('header' in from) {
            // Asana: a POST with the secret in a header, echoed in the answer's.
            given = echoable(headerValue(headers, from.header));
            if (method !== 'POST' || !given || !HEADER_TOKEN.test(given)) return null;
            answer = { status: 200, headers: { [from.header]: given } };
          } else {
            // Notion: a body whose only field is the token.
            const message = unsignedJsonObject(body);
            given = echoable(message?.[from.json]);
            if (!message || !given || Object.keys(message).length !== 1) return null;
          }
          // The confirmed one again (the sender retrying its handshake): answered as the first was.
          if (v.secret !== undefined && sameText(given, v.secret)) return { answer };
          return { answer, learnedSecret: given };
        },
      };
    }
    case 'json-crc': {
      const { when, token: path, echoAs, digestAs, signed } = handshake;
      return {
        signed,
        of(v, { body }) {
          const message = signed ? jsonObject(body) : unsignedJsonObject(body);
          if (message?.[when.field] !== when.value) return null;
          const token = echoable(valueAt(message, path));
          if (!token) return { refused: `${when.value} without a ${path}`, status: 400 };
          const digest = hmac('sha256', setting(v, 'secret'), token).toString('hex');
          return asJson({ ...(echoAs ? { [echoAs]: token } : {}), [digestAs]: digest });
        },
      };
    }
    case 'discord':
      // An interactions PING (type 1, no event) gets a PONG; a webhook events PING (type 0) 204.
      return {
        signed: true,
        of(_v, { body }) {
          const message = jsonObject(body);
          if (message?.type === 0) return { answer: { status: 204 } };
          if (message?.type === 1 && !Object.hasOwn(message, 'event')) return asJson({ type: 1 });
          return null;
        },
      };
    case 'own':
      return check.handshake;
    case 'runs':
      return undefined;
  }
}

/** The header a handshake gives the secret in: a credential, never kept with a delivery. */
export const handshakeCredentialHeaders = (sender: Sender): string[] =>
  sender.handshake?.kind === 'learn-secret' && 'header' in sender.handshake.from
    ? [sender.handshake.from.header.toLowerCase()]
    : [];
