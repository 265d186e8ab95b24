/**
 * A Svix-powered sender (Clerk, Resend, Brex, …), signed by the `svix` library itself, which sends
 * `svix-id` / `svix-timestamp` / `svix-signature`: the standard-webhooks check reads those names when no
 * `webhook-*` header is sent.
 */
import { randomUUID } from 'node:crypto';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { Webhook } from 'svix';
import type { SenderName } from '../../../src/domain/senders/catalog';
import type { SenderFixture } from './fixture';

const secret = 'whsec_' + Buffer.from('svix-signing-key-' + 'k'.repeat(16)).toString('base64');
const other = 'whsec_' + Buffer.from('another-signing-key-' + 'k'.repeat(12)).toString('base64');

const sign = (key: string) => (body: string, _url: string, at: Date) => {
  const id = `msg_${randomUUID()}`;
  return {
    method: 'POST' as const,
    query: '',
    headers: {
      'content-type': 'application/json',
      'svix-id': id,
      'svix-timestamp': String(Math.floor(at.getTime() / 1000)),
      'svix-signature': new Webhook(key).sign(id, at, body),
    },
    body,
  };
};

export const standardWebhooksSender: SenderFixture = {
  name: 'standard-webhooks',
  verification: { scheme: 'standard-webhooks', secret },
  body: '{"type":"user.created","data":{"id":"user_29w83sxmDNGwOuEthce5gg56FcC"}}',
  triggerData: { type: 'user.created', data: { id: 'user_29w83sxmDNGwOuEthce5gg56FcC' } },
  signed: sign(secret),
  signedWrongly: sign(other),
  toleranceSeconds: 300,
};

/**
 * A sender that signs the Standard Webhooks way, signed here and checked in `sdkAccepts` by the
 * `standardwebhooks` library (what Clerk's, Resend's and OpenAI's own SDKs call): headers named
 * `svix-*` where Svix sends for it, else `webhook-*`; its secret `whsec_` and the base64 of `keyText`.
 */
export function standardWebhooksFixture(f: {
  name: SenderName;
  event: object;
  names: 'svix' | 'webhook';
  idPrefix: string;
  keyText: string;
}): SenderFixture {
  const key = (text: string) => 'whsec_' + Buffer.from(text).toString('base64');
  const secret = key(f.keyText);
  const signWith = (signing: string) => (body: string, _url: string, at: Date) => {
    const id = `${f.idPrefix}${randomUUID().replace(/-/g, '')}`;
    return {
      method: 'POST' as const,
      query: '',
      headers: {
        'content-type': 'application/json',
        [`${f.names}-id`]: id,
        [`${f.names}-timestamp`]: String(Math.floor(at.getTime() / 1000)),
        [`${f.names}-signature`]: new StandardWebhook(signing).sign(id, at, body),
      },
      body,
    };
  };
  return {
    name: f.name,
    verification: { scheme: f.name, secret },
    body: JSON.stringify(f.event),
    triggerData: f.event,
    signed: signWith(secret),
    signedWrongly: signWith(key(`another ${f.keyText}`)),
    toleranceSeconds: 300,
    sdkAccepts(sent) {
      // As the senders' SDKs do: the values under the standard names, then the library's verify.
      new StandardWebhook(secret).verify(String(sent.body), {
        'webhook-id': sent.headers[`${f.names}-id`],
        'webhook-timestamp': sent.headers[`${f.names}-timestamp`],
        'webhook-signature': sent.headers[`${f.names}-signature`],
      });
    },
  };
}
