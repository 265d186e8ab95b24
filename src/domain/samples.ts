/**
 * Sample bodies, one per body format: what the card's `curl` example sends and what a test
 * delivery posts when the person gives no body of their own (docs/api.md#test-deliveries). A
 * payment provider's sample is an event of the first type the trigger selects.
 */
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
};

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
