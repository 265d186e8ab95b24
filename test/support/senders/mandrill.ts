/**
 * Mailchimp Transactional (Mandrill) as the tests play it. Its library
 * (`@mailchimp/mailchimp_transactional`) does not sign or verify webhooks: deliveries are signed as its
 * article "How to Authenticate Webhook Requests" says, `X-Mandrill-Signature: <base64 HMAC-SHA1>` of the
 * webhook URL exactly as entered, followed by every POST field's name and value (no separator), the fields
 * sorted by name, keyed with the webhook's Key as text. The body is a form with one field,
 * `mandrill_events` (a JSON array of up to 1,000 events). Its handshake: when the webhook is added, a HEAD
 * request to the URL, which must answer 200 (else Mandrill tries a test POST with `mandrill_events=[]`
 * signed with the key `test-webhook`).
 */
import { createHmac } from 'node:crypto';
import { madeSecret, type Answer, type SenderFixture, type SentRequest } from './fixture';

const webhookKey = madeSecret('mandrill-webhook-key', 22);
const otherKey = madeSecret('mandrill-other-key', 22);

const events = [
  {
    event: 'open',
    _id: 'made-up-message-id-0001',
    ts: 1767268800,
    msg: {
      ts: 1767268700,
      _id: 'made-up-message-id-0001',
      state: 'sent',
      subject: 'Your order',
      email: 'ann@example.com',
      sender: 'shop@example.com',
      tags: ['orders'],
      metadata: { order: '727' },
    },
    ip: '203.0.113.7',
    user_agent: 'Mozilla/5.0',
  },
];
const body = new URLSearchParams({ mandrill_events: JSON.stringify(events) }).toString();

/** The `X-Mandrill-Signature` of the form `form` posted to `url` (the URL as entered in Mandrill). */
export function mandrillSignature(key: string, url: string, form: string): string {
  const fields = [...new URLSearchParams(form)].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const signed = url + fields.map(([name, value]) => name + value).join('');
  return createHmac('sha1', key).update(signed).digest('base64');
}

const sign = (key: string, form: string, url: string): SentRequest => ({
  method: 'POST',
  query: '',
  headers: {
    'Content-Type': 'application/x-www-form-urlencoded',
    'User-Agent': 'Mandrill-Webhook/1.0',
    'X-Mandrill-Signature': mandrillSignature(key, url, form),
  },
  body: form,
});

export const mandrillSender: SenderFixture = {
  name: 'mandrill',
  verification: { scheme: 'mandrill', secret: webhookKey },
  body,
  // A form body: the run's trigger data is its fields, `mandrill_events` still a JSON string.
  triggerData: { mandrill_events: JSON.stringify(events) },
  signed: (body, url) => sign(webhookKey, body, url),
  signedWrongly: (body, url) => sign(otherKey, body, url),
  toleranceSeconds: null,
  handshake: {
    request: () => ({ method: 'HEAD', query: '', headers: {}, body: '' }),
    accepts(answer: Answer) {
      if (answer.status !== 200) throw new Error(`Mandrill verifies the URL only on 200, got ${answer.status}`);
    },
  },
};
