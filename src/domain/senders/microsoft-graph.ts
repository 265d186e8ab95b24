/**
 * Microsoft Graph change notifications: nothing is signed; every notification of the batch
 * (`{ "value": [ … ] }`) carries the subscription's `clientState`, which must equal the secret (the
 * clientState the person gave the subscription). Lifecycle notifications (`lifecycleEvent`:
 * reauthorizationRequired, subscriptionRemoved, missed), when the subscription's
 * lifecycleNotificationUrl is this URL too, have the same shape and clientState: they are checked
 * the same way and run as deliveries, so a robot can renew or recreate its subscription. Its
 * handshake, unsigned, is a POST with a `validationToken` query parameter (when a subscription is
 * created or renewed), answered with the token as text. Notifications have no id: the same body is
 * one delivery within the catalog's body window.
 */
import { echoable, fail, jsonObject, OK, sameText, setting, type SenderCheck } from './check';

export const microsoftGraph: SenderCheck = {
  verify(v, { body }) {
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
};
