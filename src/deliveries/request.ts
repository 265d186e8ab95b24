/**
 * A webhook request as the receiver read it, and as what its sender's check reads (src/domain/
 * senders/): the one place the public URL's query is parsed, and the signature check of a trigger
 * (the payment provider's, or its custom app's sender's) made over the exact raw bytes.
 */
import type { CustomVerification } from '../domain/senders/catalog';
import type { SenderRequest, Verdict } from '../domain/senders/check';
import { verifySender } from '../domain/senders/checks';
import { SIGNATURE_HEADER, verifyStripeSignature } from '../domain/stripe-signature';

/** A signature check the receiver makes before a delivery starts. */
export type SenderVerification = { scheme: 'stripe'; secret: string } | CustomVerification;

/** A request as the receiver read it. */
export interface DeliveryRequest {
  method: string;
  /** BASE_URL, the path and the query as sent: what some senders sign. */
  publicUrl: string;
  headers: Record<string, string | string[] | undefined>;
  contentType: string | null;
  body: Buffer;
  receivedAt: Date;
  /** The client's address (src/core/client-address.ts): where a handshake's secret came from. */
  address: string;
}

/** The request as a sender's check reads it. */
export function senderRequest(req: DeliveryRequest): SenderRequest {
  const query = req.publicUrl.indexOf('?');
  return {
    method: req.method,
    publicUrl: req.publicUrl,
    query: new URLSearchParams(query === -1 ? '' : req.publicUrl.slice(query + 1)),
    headers: req.headers,
    body: req.body,
    receivedAtMs: req.receivedAt.getTime(),
  };
}

/** What a request the receiver answers itself is keyed by: its body, or for one without (a GET) its URL. */
export const handshakeBytes = (req: DeliveryRequest) => (req.body.length > 0 ? req.body : Buffer.from(req.publicUrl));

/** Checks the request's signature over its exact raw bytes, as its sender signs (`request`: as its check reads it). */
export function verifyRequest(
  verification: SenderVerification,
  req: DeliveryRequest,
  request: SenderRequest | null,
): Verdict {
  if (verification.scheme !== 'stripe') return verifySender(verification, request ?? senderRequest(req));
  const header = req.headers[SIGNATURE_HEADER];
  const signature = (Array.isArray(header) ? header[0] : header) || undefined;
  return verifyStripeSignature(verification.secret, signature, req.body, req.receivedAt.getTime());
}
