/**
 * Adyen (Standard webhooks) as the tests play it, signed by Adyen's own library (`@adyen/api-library`,
 * `hmacValidator.calculateHmac`): the signature is not in a header but in the body, each
 * NotificationRequestItem's `additionalData.hmacSignature`, the base64 HMAC-SHA256 of
 * `pspReference:originalReference:merchantAccountCode:merchantReference:value:currency:eventCode:success`
 * (an absent field as empty), keyed with the HMAC key hex-decoded. No handshake; a taken delivery is
 * answered 2xx (Adyen's older `[accepted]` body is no longer required).
 */
import { hmacValidator as HmacValidator, Types } from '@adyen/api-library';
import { madeSecret, type SenderFixture, type SentRequest } from './fixture';

const toHex = (label: string) => Buffer.from(madeSecret(label, 32)).toString('hex').toUpperCase();
/** The HMAC key as the Customer Area shows it: 64 hex characters. */
const hmacKey = toHex('adyen-hmac-key');
const otherKey = toHex('adyen-other-key');
const validator = new HmacValidator();

/** The item as Adyen builds it, before its signature is added. */
const item: Types.notification.NotificationRequestItem = {
  amount: { currency: 'EUR', value: 1130 },
  eventCode: Types.notification.NotificationRequestItem.EventCodeEnum.Authorisation,
  eventDate: '2026-01-01T12:00:00+01:00',
  merchantAccountCode: 'MadeUpMerchantECOM',
  merchantReference: 'order-727',
  paymentMethod: 'visa',
  pspReference: 'MADEUP0000000001',
  reason: '033899:1111:03/2030',
  success: Types.notification.NotificationRequestItem.SuccessEnum.True,
};

/** A notification whose every item is signed with `key`. */
export function adyenNotification(key: string): string {
  const hmacSignature = validator.calculateHmac(item, key);
  const signedItem = { additionalData: { hmacSignature }, ...item };
  return JSON.stringify({ live: 'false', notificationItems: [{ NotificationRequestItem: signedItem }] });
}

const body = adyenNotification(hmacKey);

const post = (body: string): SentRequest => ({
  method: 'POST',
  query: '',
  headers: { 'Content-Type': 'application/json' },
  body,
});

export const adyenSender: SenderFixture = {
  name: 'adyen',
  verification: { scheme: 'adyen', secret: hmacKey },
  body,
  triggerData: JSON.parse(body),
  // The signature travels in the body, so a delivery signed with another key is another body.
  signed: (body) => post(body),
  signedWrongly: () => post(adyenNotification(otherKey)),
  toleranceSeconds: null,
  sdkAccepts(sent) {
    const parsed = JSON.parse(String(sent.body));
    for (const { NotificationRequestItem } of parsed.notificationItems) {
      if (!validator.validateHMAC(NotificationRequestItem, hmacKey)) throw new Error('Adyen refuses the item');
    }
  },
};
