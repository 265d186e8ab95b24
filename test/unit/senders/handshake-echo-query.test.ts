/**
 * The `echo-query` handshake (src/domain/senders/handshakes.ts): a GET whose challenge is echoed as
 * text, before any signature. What only its senders do: Dropbox asks for nosniff; Meta's carries the
 * verify token the person chose, refused 403 when it does not match. That each sender's handshake
 * is answered as its fixture accepts is a case of ../senders.test.ts.
 */
import type { CustomVerification } from '../../../src/domain/senders/catalog';
import { HANDSHAKE_CHALLENGE_MAX_CHARS } from '../../../src/domain/senders/parts';
import type { SentRequest } from '../../support/senders/fixture';
import { dropboxSender } from '../../support/senders/dropbox';
import { metaChallenge, metaSender, metaVerification, metaVerifyToken } from '../../support/senders/meta';
import { answered, asAnswer, handshakeOf } from '../../support/senders/verdicts';

const url = 'https://hooks.example.com/api/webhooks/wh_1/tok_1';
const at = new Date();

describe('dropbox', () => {
  const v = dropboxSender.verification as unknown as CustomVerification;
  const request = dropboxSender.handshake!.request(url, at);

  test('the challenge is echoed as text; Dropbox takes it only with nosniff, which the receiver always adds', () => {
    const { answer } = answered(handshakeOf(v, request, url));
    expect(() => dropboxSender.handshake!.accepts(asAnswer(answer))).not.toThrow();
    const { 'x-content-type-options': _nosniff, ...headers } = asAnswer(answer).headers;
    expect(() => dropboxSender.handshake!.accepts({ ...asAnswer(answer), headers })).toThrow(/nosniff/);
  });

  test('nothing else is a handshake: a POST, no, an empty or an overlong challenge, a delivery', () => {
    const others: SentRequest[] = [
      { ...request, method: 'POST' },
      { ...request, query: '' },
      { ...request, query: '?challenge=' },
      { ...request, query: `?challenge=${'x'.repeat(HANDSHAKE_CHALLENGE_MAX_CHARS + 1)}` },
      dropboxSender.signed(dropboxSender.body, url, at),
    ];
    for (const sent of others) expect(handshakeOf(v, sent, url)).toBeNull();
  });
});

describe('meta', () => {
  const v = metaSender.verification as unknown as CustomVerification;

  test('a challenge Meta did not send is not what it accepts', () => {
    const { answer } = answered(handshakeOf(v, metaVerification(metaVerifyToken), url));
    expect(() => metaSender.handshake!.accepts(asAnswer({ ...answer, body: '42' }))).toThrow();
  });

  test('a verify token that does not match, or none, is refused 403', () => {
    const refused = { refused: 'hub.verify_token does not match', status: 403 };
    expect(handshakeOf(v, metaVerification('not-the-verify-token-at-all'), url)).toEqual(refused);
    expect(handshakeOf(v, metaVerification(metaVerifyToken.slice(0, -1)), url)).toEqual(refused);
    const tokenless = { method: 'GET' as const, query: `?hub.mode=subscribe&hub.challenge=${metaChallenge}` };
    expect(handshakeOf(v, { ...tokenless, headers: {}, body: '' }, url)).toEqual({
      refused: 'missing hub.verify_token',
      status: 403,
    });
  });

  test('nothing else is a handshake: another mode, no or an overlong challenge, a POST, a delivery', () => {
    const good = metaVerification(metaVerifyToken);
    const others: SentRequest[] = [
      { ...good, query: good.query.replace('hub.mode=subscribe', 'hub.mode=unsubscribe') },
      { ...good, query: good.query.replace(`hub.challenge=${metaChallenge}`, 'hub.challenge=') },
      metaVerification(metaVerifyToken, 'x'.repeat(HANDSHAKE_CHALLENGE_MAX_CHARS + 1)),
      { ...good, query: `?hub.verify_token=${metaVerifyToken}` },
      { ...good, method: 'POST' },
      metaSender.signed(metaSender.body, url, at),
    ];
    for (const sent of others) expect(handshakeOf(v, sent, url)).toBeNull();
  });
});
