/**
 * Zoom's handshake (src/domain/senders/handshakes.ts, `zoom`) against Zoom's own Rivet library: its
 * signed endpoint.url_validation is answered exactly as Rivet answers it, one not signed with the
 * Secret Token never (Rivet refuses it too); what Rivet takes as Zoom's event we accept.
 */
import { Meetings } from '@zoom/rivet';
import type { CustomVerification } from '../../../src/domain/senders/catalog';
import { verifySender } from '../../../src/domain/senders/checks';
import { asReceived, type SentRequest } from '../../support/senders/fixture';
import {
  zoomPlainToken,
  zoomSecretToken,
  zoomSender,
  zoomSigned,
  zoomValidationBody,
} from '../../support/senders/zoom';
import { answered, handshakeOf } from '../../support/senders/verdicts';

const url = 'https://hooks.example.com/api/webhooks/wh_1/tok_1';
const at = new Date();
const v = zoomSender.verification as unknown as CustomVerification;

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

test('an event signed as the fixture signs it is accepted, and Rivet takes it as Zoom’s; forgeries neither', async () => {
  const sent = zoomSender.signed(zoomSender.body, url, at);
  expect(verifySender(v, asReceived(sent, url, at))).toEqual({ ok: true });
  expect((await rivetAnswers(sent)).statusCode).toBe(200);
  const tampered = { ...sent, body: zoomSender.body.replace('Standup', 'Standdown') };
  for (const forged of [tampered, zoomSender.signedWrongly(zoomSender.body, url, at)])
    expect((await rivetAnswers(forged)).statusCode).toBe(400);
});

test('the signed url_validation is answered with the JSON Rivet answers', async () => {
  const request = zoomSender.handshake!.request(url, at);
  const { answer } = answered(handshakeOf(v, request, url, at));
  expect(answer.contentType).toBe('application/json');
  const rivet = await rivetAnswers(request);
  expect(rivet.statusCode).toBe(200);
  expect(JSON.parse(answer.body!)).toEqual(JSON.parse(rivet.body));
  expect(JSON.parse(rivet.body)).toHaveProperty('plainToken', zoomPlainToken);
});

test('a url_validation not signed with the Secret Token is never answered (Rivet refuses it too)', async () => {
  const forged = zoomSigned('not-the-secret-token!!', zoomValidationBody(at), at);
  expect(handshakeOf(v, forged, url, at)).toBeNull();
  expect((await rivetAnswers(forged)).statusCode).toBe(400);
});

test('a url_validation without a plainToken it can echo is refused; other events are deliveries', () => {
  const body = (payload: unknown) => JSON.stringify({ event: 'endpoint.url_validation', payload });
  for (const payload of [{}, { plainToken: 7 }, { plainToken: '' }, { plainToken: 'x'.repeat(1025) }, null, 'token']) {
    expect(handshakeOf(v, zoomSender.signed(body(payload), url, at), url, at)).toEqual({
      refused: 'endpoint.url_validation without a payload.plainToken',
      status: 400,
    });
  }
  expect(handshakeOf(v, zoomSender.signed(zoomSender.body, url, at), url, at)).toBeNull();
  expect(handshakeOf(v, zoomSender.signed('not json', url, at), url, at)).toBeNull();
});
