/**
 * What a sender's check may parse of a body before its credential is checked. Whoever has a URL
 * can send that much, and the receiver parses it on its event loop before it answers, with no
 * throttle in front (the refusal throttle counts failed checks: put in front of the check, it would
 * let strangers lock the real sender out). Measured on the built checks (2026-11-29 review, R5): a
 * 32 MiB form to a Twilio URL took 160-770 ms of the event loop, 1 MiB of JSON 15-55 ms, where an
 * HMAC over 32 MiB takes 35 ms. A body past its bound is refused, unparsed, as a forgery is.
 * The senders that carry their credential inside a JSON body (Microsoft Graph's clientState,
 * Mailgun's signature object, Notion's handshake token) read at most DEDUP_PARSE_BYTES (64 KiB,
 * ./deliveries.ts), as a dedup key of an unsigned body is.
 */
import { MiB } from './units';

/**
 * A form body whose parameters are read to check its signature (Twilio's and Mandrill's, decoded and
 * sorted; Mailgun routes', which carry it in three fields, urlencoded or multipart): Twilio
 * posts a few kilobytes (an incoming message has some 30 parameters, its text at most 1,600
 * characters), so 1 MiB is far above any of its requests and a few milliseconds to decode.
 */
export const SIGNED_FORM_MAX_BYTES = 1 * MiB;

/**
 * The longest body an unsigned form ping is looked for in (WooCommerce's `webhook_id=<n>`,
 * Mandrill's `mandrill_events=[]`: a few bytes each). A longer body is a delivery and is checked as
 * one, so a stranger cannot make the receiver parse a large unsigned form to find a ping in it.
 */
export const HANDSHAKE_FORM_MAX_BYTES = 256;
