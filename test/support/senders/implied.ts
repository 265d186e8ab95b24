/**
 * What a sender's file in the catalog (src/domain/senders/catalog/) implies for the conformance suite
 * (test/unit/senders.test.ts), read from its data only, never from its name: where its credential
 * travels, whether its signature covers the body, the headers its check reads and those that carry
 * the credential. The families of one (catalog/sender.ts, FAMILIES_OF_ONE) spell none of that in
 * data: what each does is listed here, once, by family.
 */
import { SENDERS, type CustomVerification, type SenderName } from '../../../src/domain/senders/catalog';
import { FAMILIES_OF_ONE, type Signature } from '../../../src/domain/senders/catalog/sender';
import type { SentRequest } from './fixture';

/** Where a request carries its signature or credential: headers (any of them), a query parameter, or the body. */
export type Carrier = { headers: string[] } | { query: string } | 'body';

type FamilyOfOne = (typeof FAMILIES_OF_ONE)[number];
/** Each family of one: where its signature travels, and whether it covers the whole body. */
const OWN: Record<FamilyOfOne, { carrier: Carrier; signsBody: boolean }> = {
  twilio: { carrier: { headers: ['X-Twilio-Signature'] }, signsBody: true },
  'standard-webhooks': { carrier: { headers: ['webhook-signature', 'svix-signature'] }, signsBody: true },
  // The signature, its time and token are fields of the body; the rest of the body is not signed.
  mailgun: { carrier: 'body', signsBody: false },
  // Every notification's clientState equals the secret: nothing is signed.
  'microsoft-graph': { carrier: 'body', signsBody: false },
  hubspot: { carrier: { headers: ['X-HubSpot-Signature-v3'] }, signsBody: true },
  twitch: { carrier: { headers: ['Twitch-Eventsub-Message-Signature'] }, signsBody: true },
  // Its HMAC is a field of each notification, over some of its fields.
  adyen: { carrier: 'body', signsBody: false },
};

const isOwn = (signature: Signature): signature is Signature & { family: FamilyOfOne } =>
  (FAMILIES_OF_ONE as readonly string[]).includes(signature.family);

/** Where the sender's signature or credential travels (`v`: the app's settings, for a header it names). */
export function carrierOf(name: SenderName, v: CustomVerification): Carrier {
  const signature = SENDERS[name].signature;
  switch (signature.family) {
    case 'hmac': {
      const source = signature.header;
      if (typeof source === 'string') return { headers: [source] };
      if ('query' in source) return { query: source.query };
      return 'setting' in source ? { headers: [v.header ?? ''] } : { headers: [...source] };
    }
    case 'static': {
      const header = signature.header;
      return { headers: [typeof header === 'string' ? header : (v.header ?? header.default ?? '')] };
    }
    case 'basic':
      return { headers: ['Authorization'] };
    case 'public-key':
    case 'jwt':
      return { headers: [signature.header] };
    default:
      return OWN[signature.family].carrier;
  }
}

/**
 * Whether a changed body is refused: the signature covers the whole body (not a static credential,
 * not a sender that signs part of it).
 */
export function signsWholeBody(name: SenderName): boolean {
  const sender = SENDERS[name];
  const signature = sender.signature;
  if (sender.signsPartOfBody) return false;
  if (signature.family === 'static' || signature.family === 'basic') return false;
  return isOwn(signature) ? OWN[signature.family].signsBody : true;
}

/** The request without its signature or credential (undefined when it travels in the body). */
export function withoutCarrier(sent: SentRequest, carrier: Carrier): SentRequest | undefined {
  if (carrier === 'body') return undefined;
  if ('query' in carrier) {
    const query = new URLSearchParams(sent.query.replace(/^\?/, ''));
    query.delete(carrier.query);
    const left = query.toString();
    return { ...sent, query: left ? `?${left}` : '' };
  }
  const gone = new Set(carrier.headers.map((h) => h.toLowerCase()));
  const headers = Object.fromEntries(Object.entries(sent.headers).filter(([k]) => !gone.has(k.toLowerCase())));
  return { ...sent, headers };
}

/** The values the request carries its signature or credential in (to be named in no reason). */
export function carriedValues(sent: SentRequest, carrier: Carrier): string[] {
  if (carrier === 'body') return [];
  if ('query' in carrier) return new URLSearchParams(sent.query.replace(/^\?/, '')).getAll(carrier.query);
  const names = new Set(carrier.headers.map((h) => h.toLowerCase()));
  return Object.entries(sent.headers)
    .filter(([k]) => names.has(k.toLowerCase()))
    .map(([, value]) => value);
}

/**
 * The headers that carry the credential as it is (a static credential, a bearer token, a secret a
 * handshake gives), lower-case; undefined for a family of one (its own say).
 */
export function impliedCredentialHeaders(name: SenderName, v: CustomVerification): string[] | undefined {
  const sender = SENDERS[name];
  const signature = sender.signature;
  if (isOwn(signature)) return undefined;
  const carrier = carrierOf(name, v);
  const asIs = ['static', 'basic', 'jwt'].includes(signature.family) && carrier !== 'body' && 'headers' in carrier;
  const handshake = sender.handshake;
  const given = handshake?.kind === 'learn-secret' && 'header' in handshake.from ? [handshake.from.header] : [];
  return [...(asIs ? carrier.headers : []), ...given].map((h) => h.toLowerCase());
}

/**
 * The headers kept with each delivery, lower-case: those its signature reads (but a credential),
 * its delivery id's and those its file keeps; for a family of one, at least its id's and its file's.
 */
export function impliedHeadersRead(name: SenderName, v: CustomVerification): { exactly?: string[]; atLeast: string[] } {
  const sender = SENDERS[name];
  const signature = sender.signature;
  const id = sender.deliveryId;
  const own = [
    ...(id !== null && typeof id === 'object' && 'headers' in id ? id.headers : []),
    ...(sender.keeps ?? []),
  ];
  const lower = (names: readonly string[]) => [...new Set(names.map((h) => h.toLowerCase()))];
  if (isOwn(signature)) return { atLeast: lower(own) };
  const credentials = impliedCredentialHeaders(name, v) ?? [];
  const carrier = carrierOf(name, v);
  const signed = carrier !== 'body' && 'headers' in carrier ? carrier.headers : [];
  const time = 'time' in signature && signature.time && 'header' in signature.time ? [signature.time.header] : [];
  const exactly = lower([...signed, ...time, ...own]).filter((h) => !credentials.includes(h));
  return { exactly, atLeast: exactly };
}

/** The body with one letter or digit changed (its last), so that JSON and forms stay readable. */
export function tampered(body: string): string {
  const at = body.search(/[A-Za-z0-9](?=[^A-Za-z0-9]*$)/);
  if (at < 0) return body + ' ';
  const c = body[at];
  const other = c === '0' ? '1' : /[0-9]/.test(c) ? '0' : c === 'a' ? 'b' : c === 'A' ? 'B' : 'a';
  return body.slice(0, at) + other + body.slice(at + 1);
}
