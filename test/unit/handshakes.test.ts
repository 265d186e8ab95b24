/** Handshakes (src/domain/handshakes.ts): which requests are a sender's check of the URL, and their answers. */
import { HANDSHAKE_CHALLENGE_MAX_CHARS, handshakeAnswer } from '../../src/domain/handshakes';

const body = (value: unknown) => Buffer.from(JSON.stringify(value));

it("answers Slack's url_verification with its challenge, as text", () => {
  expect(handshakeAnswer('slack', body({ token: 't', challenge: 'abc123', type: 'url_verification' }))).toEqual({
    contentType: 'text/plain',
    body: 'abc123',
  });
});

it('takes anything else from Slack for a delivery', () => {
  for (const other of [
    body({ type: 'event_callback', event: { type: 'message' }, challenge: 'x' }),
    body({ type: 'url_verification' }),
    body({ type: 'url_verification', challenge: 42 }),
    body({ type: 'url_verification', challenge: '' }),
    body({ type: 'url_verification', challenge: 'x'.repeat(HANDSHAKE_CHALLENGE_MAX_CHARS + 1) }),
    body([{ type: 'url_verification', challenge: 'x' }]),
    Buffer.from('type=url_verification&challenge=x'),
    Buffer.from('not json'),
  ])
    expect(handshakeAnswer('slack', other)).toBeNull();
});

it("answers no other preset's request as a handshake", () => {
  const slackLike = body({ type: 'url_verification', challenge: 'abc' });
  for (const scheme of ['github', 'shopify', 'standard-webhooks', 'hmac', 'stripe'] as const)
    expect(handshakeAnswer(scheme, slackLike)).toBeNull();
});
