/**
 * Every sender's check, by scheme name (the catalog, ./catalog.ts, describes them; ./check.ts says
 * what a check is). The receiver asks only through the functions here.
 */
import { SENDERS, type CustomVerification, type SenderName } from './catalog';
import type { Handshake, SenderCheck, SenderRequest, Verdict } from './check';
import type { JsonValue } from '../types';
import { asana } from './asana';
import { basic } from './basic';
import { calendly } from './calendly';
import { discord } from './discord';
import { dropbox } from './dropbox';
import { github } from './github';
import { gitlab } from './gitlab';
import { headerToken } from './header-token';
import { hmac } from './hmac';
import { hubspot } from './hubspot';
import { mailgun } from './mailgun';
import { meta } from './meta';
import { microsoftGraph } from './microsoft-graph';
import { notion } from './notion';
import { okta } from './okta';
import { paddle } from './paddle';
import { sendgrid } from './sendgrid';
import { shopify } from './shopify';
import { slack } from './slack';
import { square } from './square';
import { standardWebhooks } from './standard-webhooks';
import { twilio } from './twilio';
import { twitch } from './twitch';
import { zoom } from './zoom';

const CHECKS: { readonly [name in SenderName]: SenderCheck } = {
  'standard-webhooks': standardWebhooks,
  github,
  shopify,
  slack,
  twilio,
  meta,
  zoom,
  'microsoft-graph': microsoftGraph,
  twitch,
  dropbox,
  okta,
  asana,
  notion,
  discord,
  sendgrid,
  calendly,
  paddle,
  hubspot,
  square,
  gitlab,
  mailgun,
  'header-token': headerToken,
  basic,
  hmac,
};

/** Whether the request is the app's sender's: checked over its exact raw bytes, before anything parses it. */
export const verifySender = (v: CustomVerification, req: SenderRequest): Verdict => CHECKS[v.scheme].verify(v, req);

/**
 * The request as a handshake of the app's sender, or null. `verified`: whether `verifySender`
 * passed; a handshake the sender signs is only looked at then, one it does not sign only before.
 */
export function senderHandshake(v: CustomVerification, req: SenderRequest, verified: boolean): Handshake | null {
  const handshake = CHECKS[v.scheme].handshake;
  return handshake && handshake.signed === verified ? handshake.of(v, req) : null;
}

/** Whether the app's sender makes handshakes by GET (its URL answers GET only for them). */
export const answersGet = (v: CustomVerification) => SENDERS[v.scheme].handshake?.method === 'GET';

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
