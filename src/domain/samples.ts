/**
 * Sample bodies, one per body format, and one per sender (src/domain/senders/catalog.ts): what the
 * card's `curl` example sends and what a test delivery posts when the person gives no body of their
 * own (docs/api.md#test-deliveries): the app's sender's when it is in the app's body format, else the
 * format's. A payment provider's sample is an event of the first type the trigger selects.
 */
import { SENDERS, type SenderName } from './senders/catalog';
import type { BodyFormat } from './types';

export interface SampleBody {
  contentType: string;
  body: string;
}

export const SAMPLE_BODIES: Record<BodyFormat, SampleBody> = {
  json: { contentType: 'application/json', body: '{"name":"Ann","customer":{"email":"ann@example.com"}}' },
  xml: { contentType: 'application/xml', body: '<order><name>Ann</name><email>ann@example.com</email></order>' },
  csv: { contentType: 'text/csv', body: 'name,email\nAnn,ann@example.com\nBob,bob@example.com' },
  text: { contentType: 'text/plain', body: 'Hello from Ann' },
  form: { contentType: 'application/x-www-form-urlencoded', body: 'name=Ann&customer[email]=ann%40example.com' },
};

/** A custom app's sample: its sender's when that is in the app's body format, else the format's. */
export function appSample(format: BodyFormat, sender: SenderName | null): SampleBody {
  return sender && SENDERS[sender].bodyFormat === format ? SENDERS[sender].sample : SAMPLE_BODIES[format];
}

/** A payment provider's event (Stripe's shape), of the first selected type or a payment's. */
export function samplePaymentEvent(events: readonly string[] | undefined): SampleBody {
  const type = events?.[0] ?? 'payment_intent.succeeded';
  const event = {
    id: 'evt_test_delivery',
    object: 'event',
    type,
    livemode: false,
    data: { object: { id: 'pi_test', object: 'payment_intent', amount: 1999, currency: 'eur', status: 'succeeded' } },
  };
  return { contentType: 'application/json', body: JSON.stringify(event) };
}
