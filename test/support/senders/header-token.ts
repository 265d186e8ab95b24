/**
 * A sender with a fixed header, as the tests play it (n8n's Header Auth, in-house senders): the
 * header it is told to add, with the value it is given. No library: nothing is signed.
 */
import { madeSecret, type SenderFixture, type SentRequest } from './fixture';

export const HEADER = 'X-Webhook-Token';
const value = madeSecret('header-token-value', 40);
const otherValue = madeSecret('header-token-other', 40);

const body = JSON.stringify({ name: 'Ann', customer: { email: 'ann@example.com' }, total: 19.99 });

const sign = (token: string, body: string): SentRequest => ({
  method: 'POST',
  query: '',
  headers: { 'Content-Type': 'application/json', [HEADER]: token },
  body,
});

export const headerTokenSender: SenderFixture = {
  name: 'header-token',
  verification: { scheme: 'header-token', header: HEADER, secret: value },
  body,
  triggerData: JSON.parse(body),
  signed: (body) => sign(value, body),
  signedWrongly: (body) => sign(otherValue, body),
  toleranceSeconds: null,
};
