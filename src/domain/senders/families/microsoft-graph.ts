/**
 * Microsoft Graph change notifications: nothing is signed; every notification of the batch
 * (`{ "value": [ … ] }`) carries the subscription's `clientState`, which must equal the secret (the
 * clientState the person gave the subscription). Lifecycle notifications (`lifecycleEvent`:
 * reauthorizationRequired, subscriptionRemoved, missed), when the subscription's
 * lifecycleNotificationUrl is this URL too, have the same shape and clientState: they are checked
 * the same way and run as deliveries, so a robot can renew or recreate its subscription. Its
 * handshake, unsigned, is a POST with a `validationToken` query parameter (when a subscription is
 * created or renewed), answered with the token as text. Notifications have no id: the same body is
 * one delivery within the catalog's body window. The clientState is left out of the trigger data.
 * The clientState is read from a body of at most DEDUP_PARSE_BYTES (src/domain/limits/
 * unsigned-parsing.ts): a larger one is refused unparsed.
 */
import { echoable, fail, jsonObject, OK, pastUnsignedParse, sameText, setting, type SenderCheck } from '../parts';
import type { JsonValue } from '../../types';

export const microsoftGraph: SenderCheck = {
  verify(v, { body }) {
    const tooLarge = pastUnsignedParse(body);
    if (tooLarge) return tooLarge;
    const notifications = jsonObject(body)?.value;
    if (!Array.isArray(notifications)) return fail('body is not a JSON object with a value array of notifications');
    if (notifications.length === 0) return fail('the value array has no notifications');
    const secret = setting(v, 'secret');
    for (const [i, notification] of (notifications as unknown[]).entries()) {
      const clientState: unknown =
        notification && typeof notification === 'object' && 'clientState' in notification
          ? notification.clientState
          : undefined;
      if (typeof clientState !== 'string') return fail(`notification ${i} has no clientState`);
      if (!sameText(clientState, secret)) return fail(`notification ${i}: clientState does not match the secret`);
    }
    return OK;
  },
  handshake: {
    signed: false,
    of(_v, { method, query }) {
      const token = echoable(query.get('validationToken'));
      if (method !== 'POST' || !token) return null;
      return { answer: { status: 200, contentType: 'text/plain', body: token } };
    },
  },
  headersRead: () => [],
  triggerData(data) {
    const notifications = data && typeof data === 'object' && !Array.isArray(data) ? data.value : undefined;
    if (!Array.isArray(notifications)) return data;
    const value = notifications.map((n) => {
      if (!n || typeof n !== 'object' || Array.isArray(n)) return n;
      const { clientState: _credential, ...rest } = n;
      return rest;
    });
    return { ...(data as Record<string, JsonValue>), value };
  },
};
