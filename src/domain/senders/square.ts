/**
 * Square: `x-square-hmacsha256-signature: <base64 HMAC-SHA256 of notificationUrl + body>` under the
 * subscription's signature key, where notificationUrl is the URL the subscription was given (the
 * public URL the request was sent to). Square signs no time. Deliveries are told apart by the
 * body's `event_id` (signed; the same for every retry of an event).
 */
import { digestHeader, hmac, jsonObject, setting, type SenderCheck } from './check';

export const square: SenderCheck = {
  verify: (v, { headers, publicUrl, body }) =>
    digestHeader(
      headers,
      'x-square-hmacsha256-signature',
      hmac('sha256', setting(v, 'secret'), publicUrl, body),
      'base64',
    ),
  deliveryId({ body }) {
    const id = jsonObject(body)?.event_id;
    return typeof id === 'string' && id.length > 0 ? id : undefined;
  },
  headersRead: () => ['x-square-hmacsha256-signature'],
};
