/**
 * Adyen (standard payment webhooks): the signature travels inside the body. Every item of
 * `notificationItems` carries `NotificationRequestItem.additionalData.hmacSignature`, the base64
 * HMAC-SHA256, under the HMAC key hex-decoded, of eight of its fields joined by `:` (pspReference,
 * originalReference, merchantAccountCode, merchantReference, amount.value, amount.currency, eventCode,
 * success; an absent one as empty), as Adyen's own library computes it. Every item must verify.
 * Only those fields are signed (the rest of the body is not: the sender's file says
 * `signsPartOfBody`), so deliveries are told apart by what is: each item's pspReference, eventCode
 * and success (Adyen's own advice is eventCode and pspReference). The body is read before it is
 * checked, so only within DEDUP_PARSE_BYTES (src/domain/limits/unsigned-parsing.ts).
 */
import {
  anyDigestMatches,
  fail,
  hmac,
  jsonObject,
  OK,
  pastUnsignedParse,
  setting,
  type SenderCheck,
  type Verdict,
} from '../parts';

type Item = Record<string, unknown>;

const field = (value: unknown): string => (typeof value === 'string' || typeof value === 'number' ? String(value) : '');
const objectOf = (value: unknown): Item | undefined =>
  value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Item) : undefined;

/** The body's notification items, or undefined when it has none. */
function itemsOf(body: Buffer): Item[] | undefined {
  const list = jsonObject(body)?.notificationItems;
  if (!Array.isArray(list) || list.length === 0) return undefined;
  const items = list.map((entry) => objectOf(objectOf(entry)?.NotificationRequestItem));
  return items.every((item) => item !== undefined) ? items : undefined;
}

/** What an item's signature covers. */
function signedText(item: Item): string {
  const amount = objectOf(item.amount);
  return [
    item.pspReference,
    item.originalReference,
    item.merchantAccountCode,
    item.merchantReference,
    amount?.value,
    amount?.currency,
    item.eventCode,
    item.success,
  ]
    .map(field)
    .join(':');
}

export const adyen: SenderCheck = {
  verify(v, { body }): Verdict {
    const tooLong = pastUnsignedParse(body);
    if (tooLong) return tooLong;
    const items = itemsOf(body);
    if (!items) return fail('no notificationItems[].NotificationRequestItem in the body');
    const key = Buffer.from(setting(v, 'secret'), 'hex');
    for (const item of items) {
      const signature = objectOf(item.additionalData)?.hmacSignature;
      if (typeof signature !== 'string') return fail('a notification item without additionalData.hmacSignature');
      const verdict = anyDigestMatches([signature], 'hmacSignature', [hmac('sha256', key, signedText(item))], 'base64');
      if (!verdict.ok) return verdict;
    }
    return OK;
  },
  deliveryId({ body }) {
    const items = itemsOf(body);
    return items?.map((item) => [item.pspReference, item.eventCode, item.success].map(field).join(':')).join(',');
  },
  headersRead: () => [],
};
