/**
 * Zoom's check (src/domain/senders/zoom.ts) against Zoom's own Rivet library: what Rivet takes as
 * Zoom's we accept, what it refuses we refuse, and our url_validation answer is the one Rivet gives.
 */
import { Meetings } from '@zoom/rivet';
import { SENDERS, type CustomVerification } from '../../../src/domain/senders/catalog';
import { MISMATCH, outside, type HandshakeAnswer, type Verdict } from '../../../src/domain/senders/parts';
import { checkOf } from '../../../src/domain/senders/checks';
const check = checkOf('zoom');
import { asReceived, type Answer, type SentRequest } from '../../support/senders/fixture';
import {
  zoomPlainToken,
  zoomSecretToken,
  zoomSender,
  zoomSigned,
  zoomValidationBody,
} from '../../support/senders/zoom';

const url = 'https://hooks.example.com/api/webhooks/wh_1/tok_1';
const at = new Date();
const v = zoomSender.verification as unknown as CustomVerification;
const TOLERANCE = SENDERS.zoom.toleranceSeconds!;
const verify = (sent: SentRequest, when = at) => check.verify(v, asReceived(sent, url, when));
const handshake = (sent: SentRequest) => check.handshakes.signed!(v, asReceived(sent, url, at));
const reasonOf = (verdict: Verdict) => (verdict.ok ? 'accepted' : verdict.reason);
const later = (seconds: number) => new Date(at.getTime() + seconds * 1000);
const asAnswer = (answer: HandshakeAnswer): Answer => ({
  status: answer.status,
  headers: {
    'x-content-type-options': 'nosniff',
    'content-type': `${answer.contentType ?? 'text/plain'}; charset=utf-8`,
  },
  body: answer.body ?? '',
});

interface LambdaAnswer {
  statusCode: number;
  body: string;
}
/** What Rivet's receiver (as an AWS Lambda) answers the request: Zoom's own check and handshake answer. */
async function rivetAnswers(sent: SentRequest): Promise<LambdaAnswer> {
  const receiver = new Meetings.AwsLambdaReceiver({ webhooksSecretToken: zoomSecretToken });
  const handle = receiver.start() as unknown as (event: object, context: object) => Promise<LambdaAnswer>;
  // Rivet logs every event it is given with console.debug.
  const debug = jest.spyOn(console, 'debug').mockImplementation(() => undefined);
  try {
    return await handle({ body: sent.body, headers: sent.headers, isBase64Encoded: false }, {});
  } finally {
    debug.mockRestore();
  }
}

it('accepts an event signed as Zoom signs it, which Rivet takes as Zoom’s too', async () => {
  const sent = zoomSender.signed(zoomSender.body, url, at);
  expect(verify(sent)).toEqual({ ok: true });
  expect(await rivetAnswers(sent)).toEqual({
    statusCode: 200,
    body: JSON.stringify({ message: 'Zoom event processed successfully.' }),
    headers: { 'Content-Type': 'application/json' },
  });
});

it('refuses a tampered body and another Secret Token, as Rivet does', async () => {
  const sent = zoomSender.signed(zoomSender.body, url, at);
  const tampered = { ...sent, body: zoomSender.body.replace('Standup', 'Standdown') };
  const wrong = zoomSender.signedWrongly(zoomSender.body, url, at);
  for (const forged of [tampered, wrong]) {
    expect(verify(forged)).toEqual(MISMATCH);
    expect((await rivetAnswers(forged)).statusCode).toBe(400);
  }
  // The timestamp is signed: one changed on the way is refused.
  const moved = {
    ...sent,
    headers: { ...sent.headers, 'x-zm-request-timestamp': String(Math.floor(at.getTime() / 1000) + 1) },
  };
  expect(verify(moved)).toEqual(MISMATCH);
});

it(`refuses a signature older or newer than ${TOLERANCE} seconds (the catalog's tolerance)`, () => {
  const sent = zoomSender.signed(zoomSender.body, url, at);
  expect(verify(sent, later(TOLERANCE - 1))).toEqual({ ok: true });
  expect(verify(sent, later(TOLERANCE + 1))).toEqual(outside(TOLERANCE));
  expect(verify(sent, later(-TOLERANCE - 1))).toEqual(outside(TOLERANCE));
});

it('refuses a request without x-zm-signature or x-zm-request-timestamp, or a malformed one', () => {
  const sent = zoomSender.signed(zoomSender.body, url, at);
  const without = (name: string) => {
    const headers = { ...sent.headers };
    delete headers[name];
    return { ...sent, headers };
  };
  expect(reasonOf(verify(without('x-zm-signature')))).toBe('missing x-zm-signature header');
  expect(reasonOf(verify(without('x-zm-request-timestamp')))).toBe('missing x-zm-request-timestamp header');
  const iso = { ...sent, headers: { ...sent.headers, 'x-zm-request-timestamp': at.toISOString() } };
  expect(reasonOf(verify(iso))).toBe('malformed x-zm-request-timestamp header: expected unix seconds');
  const bare = { ...sent, headers: { ...sent.headers, 'x-zm-signature': sent.headers['x-zm-signature'].slice(3) } };
  expect(reasonOf(verify(bare))).toBe('malformed x-zm-signature header: expected "v0=" + hex digest of 32 bytes');
});

it("answers the signed url_validation exactly as Rivet does, and as Zoom's documented check expects", async () => {
  expect(check.handshakes.signed).toBeDefined();
  const request = zoomSender.handshake!.request(url, at);
  // Signed: the receiver looks at it only once verify passed.
  expect(verify(request)).toEqual({ ok: true });
  const answered = handshake(request);
  if (!answered || !('answer' in answered)) throw new Error('expected an answer');
  expect(answered.answer.contentType).toBe('application/json');
  const rivet = await rivetAnswers(request);
  expect(rivet.statusCode).toBe(200);
  expect(JSON.parse(answered.answer.body!)).toEqual(JSON.parse(rivet.body));
  expect(JSON.parse(rivet.body)).toHaveProperty('plainToken', zoomPlainToken);
  expect(() => zoomSender.handshake!.accepts(asAnswer(answered.answer))).not.toThrow();
});

it('never answers a url_validation that is not signed with the Secret Token (Rivet refuses it too)', async () => {
  const forged = zoomSigned('not-the-secret-token!!', zoomValidationBody(at), at);
  expect(verify(forged)).toEqual(MISMATCH);
  expect((await rivetAnswers(forged)).statusCode).toBe(400);
});

it('refuses a url_validation without a plainToken it can echo; takes other events for deliveries', () => {
  const body = (payload: unknown) => JSON.stringify({ event: 'endpoint.url_validation', payload });
  for (const payload of [{}, { plainToken: 7 }, { plainToken: '' }, { plainToken: 'x'.repeat(1025) }, null, 'token']) {
    expect(handshake(zoomSender.signed(body(payload), url, at))).toEqual({
      refused: 'endpoint.url_validation without a payload.plainToken',
      status: 400,
    });
  }
  expect(handshake(zoomSender.signed(zoomSender.body, url, at))).toBeNull();
  expect(handshake(zoomSender.signed('not json', url, at))).toBeNull();
});

it('names no delivery id, and keeps the signature and its timestamp', () => {
  expect(check.deliveryId).toBeUndefined();
  expect(check.headersRead(v)).toEqual(['x-zm-signature', 'x-zm-request-timestamp']);
});
