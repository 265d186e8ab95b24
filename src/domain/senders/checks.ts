/**
 * Every sender's check, made once from its file in the catalog (./catalog/) by its family's code
 * (./families/) and its handshake's kind (./handshakes.ts); ./parts.ts says what a check is. The
 * rules every sender shares are applied here, once: the headers kept with a delivery are those its
 * signature reads, its id headers and those its file keeps, never one that carries its credential.
 * The receiver asks only through the functions here.
 */
import { SENDER_NAMES, SENDERS, type CustomVerification, type SenderName } from './catalog';
import type { Sender, SenderSettings } from './catalog/sender';
import { stripe } from './catalog/stripe';
import type { Handshake, SenderCheck, SenderRequest, SenderVerification, Verdict } from './parts';
import { jsonObject, valueAt } from './parts';
import type { JsonValue } from '../types';
import { handshakeCredentialHeaders, handshakesOf, type Handshakes } from './handshakes';
import { hmacCheck } from './families/hmac';
import { publicKeyCheck } from './families/public-key';
import { staticCheck } from './families/static';
import { adyen } from './families/adyen';
import { hubspot } from './families/hubspot';
import { jwtCheck } from './families/jwt';
import { mailgun } from './families/mailgun';
import { microsoftGraph } from './families/microsoft-graph';
import { standardWebhooks, standardWebhooksWithTextKey } from './families/standard-webhooks';
import { twilio } from './families/twilio';
import { twitch } from './families/twitch';
import { headerValue } from '../headers';

const FAMILIES_OF_ONE = {
  twilio,
  mailgun,
  'microsoft-graph': microsoftGraph,
  hubspot,
  twitch,
  adyen,
};

/** The label of a setting of the sender's, for a refusal's reason. */
const labelOf = (sender: Sender, name: 'secret' | 'publicKey') =>
  sender.settings.find((s) => s.name === name)?.label ?? name;

/** The family's check of the sender's requests. */
function familyCheck(sender: Sender): SenderCheck {
  const signature = sender.signature;
  switch (signature.family) {
    case 'hmac': {
      const from = sender.handshake?.kind === 'learn-secret' ? sender.handshake.from : undefined;
      const secretFrom = from && ('header' in from ? from.header : from.json);
      return hmacCheck(signature, { toleranceSeconds: sender.toleranceSeconds, secretFrom });
    }
    case 'public-key':
      return publicKeyCheck(signature, {
        toleranceSeconds: sender.toleranceSeconds,
        keyLabel: labelOf(sender, 'publicKey'),
      });
    case 'jwt':
      return jwtCheck(signature, sender.toleranceSeconds);
    case 'standard-webhooks':
      return signature.key === 'text' ? standardWebhooksWithTextKey : standardWebhooks;
    case 'static':
    case 'basic':
      return staticCheck(signature, labelOf(sender, 'secret'));
    default:
      return FAMILIES_OF_ONE[signature.family];
  }
}

/** The value at a dotted path of the signed JSON body, as an id: a non-empty string or a number. */
function jsonId(body: Buffer, path: string): string | undefined {
  const value = valueAt(jsonObject(body), path);
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** `of` worked out once per settings object. */
function once(of: (v: SenderSettings) => string[]): (v: SenderSettings) => string[] {
  const known = new WeakMap<SenderSettings, string[]>();
  return (v) => {
    let found = known.get(v);
    // Frozen: every delivery of the app shares it.
    if (!found) known.set(v, (found = Object.freeze(of(v)) as string[]));
    return found;
  };
}

/** A sender's check as the functions below use it: its family's, with its handshakes. */
type AssembledCheck = SenderCheck & { handshakes: Handshakes };

/** The sender's check: its family's, with its handshakes, its delivery id and the headers it keeps. */
function senderCheck(sender: Sender): AssembledCheck {
  const family = familyCheck(sender);
  const id = sender.deliveryId;
  const idHeaders = id !== null && typeof id === 'object' && 'headers' in id ? id.headers : [];
  // Worked out once per app's settings (a trigger keeps its verification object), not per delivery.
  const credentials = once((v) => [...(family.credentialHeaders?.(v) ?? []), ...handshakeCredentialHeaders(sender)]);
  const read = once((v) => {
    const secret = credentials(v);
    const names = [...family.headersRead(v), ...idHeaders, ...(sender.keeps ?? [])].map((h) => h.toLowerCase());
    return [...new Set(names)].filter((name) => !secret.includes(name));
  });
  return {
    ...family,
    handshakes: handshakesOf(sender, family),
    deliveryId:
      id === 'own'
        ? (req) => family.deliveryId?.(req)
        : id === null
          ? undefined
          : 'json' in id
            ? ({ body }) => jsonId(body, id.json)
            : ({ headers }) =>
                id.headers.map((name) => headerValue(headers, name)).find((value) => value !== undefined),
    headersRead: read,
    credentialHeaders: credentials,
  };
}

const CHECKS = Object.fromEntries(SENDER_NAMES.map((name) => [name, senderCheck(SENDERS[name])])) as {
  readonly [name in SenderName]: AssembledCheck;
};
/** The payment provider connection's check (not a scheme an app can name). */
const STRIPE = hmacCheck(stripe.signature, stripe);

/** Whether the request is the trigger's sender's: checked over its exact raw bytes, before anything parses it. */
export const verifySender = (v: SenderVerification, req: SenderRequest): Verdict =>
  (v.scheme === 'stripe' ? STRIPE : CHECKS[v.scheme]).verify(v, req);

/**
 * The request as a handshake of the app's sender, or null. `verified`: whether `verifySender`
 * passed; a handshake the sender signs is only looked at then, one it does not sign only before.
 */
export function senderHandshake(v: CustomVerification, req: SenderRequest, verified: boolean): Handshake | null {
  const { handshakes } = CHECKS[v.scheme];
  return (verified ? handshakes.signed : handshakes.unsigned)?.(v, req) ?? null;
}

/** Whether the app's sender checks the URL with this method (GET, HEAD): its URL answers it only for that. */
export const answersMethod = (v: CustomVerification, method: string) => SENDERS[v.scheme].handshake?.method === method;

/** The sender's own id of a verified delivery (src/domain/dedup.ts keys on it), or undefined. */
export const senderDeliveryId = (v: CustomVerification, req: SenderRequest): string | undefined =>
  CHECKS[v.scheme].deliveryId?.(req);

/** A delivery's trigger data as its runs keep it: without a credential its sender carries in the body. */
export function senderTriggerData(sender: SenderName | null, data: JsonValue): JsonValue {
  const check = sender ? CHECKS[sender] : undefined;
  return check?.triggerData ? check.triggerData(data) : data;
}

/** The request headers kept with each delivery of the app's sender (lower-case). */
export const headersRead = (v: CustomVerification): string[] => CHECKS[v.scheme].headersRead(v);

/** The headers that carry the app's sender's credential (lower-case): never kept with a delivery. */
export const credentialHeaders = (v: CustomVerification): string[] => CHECKS[v.scheme].credentialHeaders?.(v) ?? [];

/** A sender's whole check, as the functions above use it (for the conformance suite). */
export const checkOf = (name: SenderName): AssembledCheck => CHECKS[name];
