/**
 * A webhook request as the receiver read it, and as what its sender's check reads (src/domain/
 * senders/): the one place the public URL's query is parsed, and the signature check of a trigger
 * (the payment provider's, or its custom app's sender's) made over the exact raw bytes.
 */
import type { SenderRequest, SenderVerification, Verdict } from '../domain/senders/parts';
import { verifySender } from '../domain/senders/checks';

export type { SenderVerification } from '../domain/senders/parts';

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
  return verifySender(verification, request ?? senderRequest(req));
}
