/**
 * Twilio as the tests play it: a form POST (an SMS arriving) signed by Twilio's own library
 * (`getExpectedTwilioSignature`: the URL, then the sorted form parameters, HMAC-SHA1 under the Auth
 * Token), and a JSON body signed through the URL's `bodySHA256` as Twilio signs those. No handshake.
 */
import twilio from 'twilio';
import { madeSecret, type SenderFixture, type SentRequest } from './fixture';

const authToken = madeSecret('twilio-auth-token', 32);
const otherToken = madeSecret('twilio-other-token', 32);

const fields = {
  MessageSid: 'SM0000000000000000000000000000001',
  AccountSid: 'AC0000000000000000000000000000001',
  From: '+15550100',
  To: '+15550199',
  Body: 'Hello from Ann & co: 50% off?',
  NumMedia: '0',
};
const body = new URLSearchParams(fields).toString();

/** The form parameters as Express gives them to Twilio's validateRequest (a name sent twice: an array). */
export function formParams(form: string): Record<string, string | string[]> {
  const params: Record<string, string | string[]> = {};
  for (const [name, value] of new URLSearchParams(form)) {
    const seen = Object.hasOwn(params, name) ? params[name] : undefined;
    params[name] = seen === undefined ? value : [...(Array.isArray(seen) ? seen : [seen]), value];
  }
  return params;
}

/** A form body signed for `signedUrl` (the URL Twilio was given), sent to the webhook URL with `query`. */
export function signedForm(
  token: string,
  form: string,
  signedUrl: string,
  query = '',
  algorithm?: string,
): SentRequest {
  const headers: Record<string, string> = {
    'Content-Type': 'application/x-www-form-urlencoded',
    'X-Twilio-Signature': twilio.getExpectedTwilioSignature(token, signedUrl, formParams(form), algorithm),
    'I-Twilio-Idempotency-Token': 'idempotency-token-1',
  };
  if (algorithm) headers['X-Twilio-Webhooks-Signature-Settings'] = `key=made-up-key,algorithm=${algorithm}`;
  return { method: 'POST', query, headers, body: form };
}

/** A JSON body as Twilio sends one: its SHA-256 (hex) in the URL's `bodySHA256`, the URL signed alone. */
export function signedJson(token: string, json: string, url: string): SentRequest {
  const query = `?bodySHA256=${twilio.getExpectedBodyHash(json)}`;
  return {
    method: 'POST',
    query,
    headers: {
      'Content-Type': 'application/json',
      'X-Twilio-Signature': twilio.getExpectedTwilioSignature(token, url + query, {}),
    },
    body: json,
  };
}

export const twilioSender: SenderFixture = {
  name: 'twilio',
  verification: { scheme: 'twilio', secret: authToken },
  body,
  triggerData: fields,
  signed: (form, url) => signedForm(authToken, form, url),
  signedWrongly: (form, url) => signedForm(otherToken, form, url),
  toleranceSeconds: null,
};
